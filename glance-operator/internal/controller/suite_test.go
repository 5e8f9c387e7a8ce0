package controller_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	glance "github.com/c5c3/openstack-operators/glance-operator"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/controller"
	"github.com/c5c3/openstack-operators/testsupport/runsuite"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The suite runs the real manager (both controllers) in-process against a
// real kube-apiserver and etcd. Simulators (testsupport/testenv) write the status
// ESO, mariadb-operator and the Deployment/Job controllers would write; the
// API health probe hits a local HTTP stand-in per test, since no glance-api
// runs here.
var (
	k8s        client.Client
	cfg        *rest.Config
	reconciler *controller.GlanceReconciler
	writes     testenv.WriteCounter
	api        = &testenv.ProbeURLs{}
	suite      = &testenv.Suite{Writes: &writes, Dump: dumpGlances}
)

func TestMain(m *testing.M) {
	os.Exit(runsuite.Main(m, suite, []string{filepath.Join("..", "..", "config", "crd")}, filepath.Join("..", "..", "config", "rbac", "role.yaml"), glance.Operator, "glance-system", api,
		func(r *controller.GlanceReconciler, c *rest.Config) { reconciler, cfg, k8s = r, c, suite.Client }))
}

const (
	clustersNamespace = runsuite.ClustersNamespace
	clusterDomain     = runsuite.ClusterDomain
)

// dumpGlances prints every Glance's and GlanceBackend's conditions.
func dumpGlances() string {
	var b strings.Builder
	var gl glancev1.GlanceList
	if err := k8s.List(context.Background(), &gl); err != nil {
		return err.Error()
	}
	for _, g := range gl.Items {
		testenv.WriteConditions(&b, fmt.Sprintf("Glance %s/%s gen %d phase %q installed %q target %q:", g.Namespace, g.Name, g.Generation,
			g.Status.UpgradePhase, g.Status.InstalledRelease, g.Status.TargetRelease), g.Status.Conditions)
	}
	var bl glancev1.GlanceBackendList
	if err := k8s.List(context.Background(), &bl); err != nil {
		return err.Error()
	}
	for _, x := range bl.Items {
		testenv.WriteConditions(&b, fmt.Sprintf("GlanceBackend %s/%s:", x.Namespace, x.Name), x.Status.Conditions)
	}
	return b.String()
}
