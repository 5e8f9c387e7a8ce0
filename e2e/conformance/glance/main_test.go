package glance_test

import (
	"os"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	glance "github.com/c5c3/openstack-operators/glance-operator"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// env holds the servers every test shares: Keystone alone costs ~10 s of
// keystone-manage, so one set serves the whole package.
var env harness.Env

// The Keystone service user every Glance authenticates as.
const (
	serviceUser     = "glance"
	serviceUserPass = "glance-keystone-pw"
)

func TestMain(m *testing.M) {
	os.Exit(harness.Main(m, harness.Options{
		ServiceUser: serviceUser, ServicePassword: serviceUserPass, S3: true,
		CRDDir: "glance-operator/config/crd", AddToScheme: glancev1.AddToScheme,
		OperatorNamespace: "glance-system", New: glance.Operator.NewManager,
		// Both launch modes on the machine's Zed glance. Glance 33 (sid,
		// 2026.2) refuses the standalone eventlet server ("Standalone
		// glance-api is no longer supported"), so a 2025.2 CR's
		// command, meant for glance 31, is not run there.
		Releases: map[string][]string{"": {"2025.2", "2026.1"}, "sid": {"2026.1"}},
	}, &env))
}
