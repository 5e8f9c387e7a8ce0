package barbican_test

import (
	"os"
	"testing"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
)

// env holds the servers every test shares.
var env harness.Env

// The Keystone service user every Barbican authenticates as.
const (
	serviceUser     = "barbican"
	serviceUserPass = "barbican-keystone-pw"
)

func TestMain(m *testing.M) {
	os.Exit(harness.Main(m, harness.Options{
		ServiceUser: serviceUser, ServicePassword: serviceUserPass,
		CRDDir: "barbican-operator/config/crd", CRDDirs: []string{barbican.InstanceCRDDir},
		AddToScheme: barbicanv1.AddToScheme, OperatorNamespace: "barbican-system", New: barbican.Operator.NewManager,
		// The rendered command names the module barbican.wsgi.api, which
		// the machine's bookworm barbican (15, Zed) lacks: the suite runs
		// Debian sid's barbican 23 in every pass, with both paste layouts
		// (below and from 2026.1).
		Debian:   "sid",
		Releases: map[string][]string{"sid": {"2025.2", "2026.1"}},
	}, &env))
}
