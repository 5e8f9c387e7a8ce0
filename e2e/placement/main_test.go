package placement_test

import (
	"os"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// env is what the suite shares: the cluster, an admin client, the
// operator process, and the machine-side pieces (MariaDB, stand-ins, pod
// runner).
var env suite.Env

const (
	operatorNamespace = "placement-system"
	clustersNamespace = suite.ClustersNamespace
	releaseName       = "placement"
)

func TestMain(m *testing.M) {
	os.Exit(suite.Main(m, suite.Options{
		Cluster: "e2e-placement", Chart: "placement-operator", Release: releaseName, OperatorNamespace: operatorNamespace,
		AddToScheme: placementv1.AddToScheme,
		Profiles:    func(root string) []localrun.Profile { return []localrun.Profile{localrun.Placement(root)} },
	}, &env))
}
