package controller_test

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	placement "github.com/c5c3/openstack-operators/placement-operator"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	"github.com/c5c3/openstack-operators/testsupport/runsuite"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The suite runs the real manager in-process against a real kube-apiserver
// and etcd. Simulators (testsupport/testenv) write the status ESO, mariadb-operator
// and the Deployment/Job controllers would write; the API health probe hits
// a local HTTP stand-in per test (FakeAPI), since no placement-api runs here.
var (
	k8s        client.Client
	cfg        *rest.Config
	reconciler *controller.PlacementReconciler
	writes     writeCounter
	api        = &testenv.ProbeURLs{}
	suite      = &testenv.Suite{Writes: &writes.WriteCounter, Dump: dumpPlacements}
)

func TestMain(m *testing.M) {
	os.Exit(runsuite.Main(m, suite, []string{filepath.Join("..", "..", "config", "crd")}, filepath.Join("..", "..", "config", "rbac", "role.yaml"), placement.Operator, "placement-system", api,
		func(r *controller.PlacementReconciler, c *rest.Config) { reconciler, cfg, k8s = r, c, suite.Client }))
}

const (
	clustersNamespace = runsuite.ClustersNamespace
	clusterDomain     = runsuite.ClusterDomain
)

// writeCounter counts mutating requests the manager sends, by verb and path.
type writeCounter struct{ testenv.WriteCounter }

func (w *writeCounter) snapshot() map[string]int { return w.Snapshot() }

// FakeAPI is a local HTTP stand-in for placement-api.
var FakeAPI = testenv.FakeAPI
