package placement_test

import (
	"os"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	placement "github.com/c5c3/openstack-operators/placement-operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// env holds the servers every test shares: Keystone alone costs ~10 s of
// keystone-manage, so one set serves the whole package.
var env harness.Env

// The Keystone service user every Placement authenticates as.
const (
	serviceUser     = "placement"
	serviceUserPass = "placement-keystone-pw"
)

func TestMain(m *testing.M) {
	os.Exit(harness.Main(m, harness.Options{
		ServiceUser: serviceUser, ServicePassword: serviceUserPass,
		CRDDir: "placement-operator/config/crd", AddToScheme: placementv1.AddToScheme,
		OperatorNamespace: "placement-system", New: placement.Operator.NewManager,
		// Both releases render the same uwsgi command, which placement 8
		// (bookworm) and 16 (sid) both run.
		Releases: map[string][]string{"": {"2025.2", "2026.1"}, "sid": {"2025.2", "2026.1"}},
	}, &env))
}
