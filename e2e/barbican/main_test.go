package barbican_test

import (
	"fmt"
	"os"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// env is what the suite shares (see suite.Env).
var env suite.Env

func TestMain(m *testing.M) {
	// hack/rootfs.sh builds the root once per machine; make test builds it
	// before the suites run.
	root, err := testenv.DebianRoot("sid")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e set-up: the sid root filesystem:", err)
		os.Exit(1)
	}
	os.Exit(suite.Main(m, suite.Options{
		Cluster: "e2e-barbican", Chart: "barbican-operator", Release: "barbican", OperatorNamespace: "barbican-system",
		AddToScheme: barbicanv1.AddToScheme,
		Profiles:    func(string) []localrun.Profile { return []localrun.Profile{localrun.Barbican(root)} },
	}, &env))
}
