package barbican_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/tempest"
)

// The skips the Barbican plugin's API tests may report here, each with the
// reason it is not a gap of the deployment. Any other skip fails the test.
var keyManagerSkips = []tempest.Skip{
	{Reason: regexp.MustCompile(`^enforce_scope is enabled for barbican, skipping project quota tests\.$`),
		Why: "the project-quota API takes system-scoped credentials once scope is enforced (oslo.policy 5 and later always enforce it); Tempest's test uses project-scoped ones and skips itself"},
}

// TestTempest runs the Barbican Tempest plugin's API tests
// (barbican_tempest_plugin.tests.api) against a Barbican on its managed
// OpenBao store, started from exactly what the operator rendered, for every
// release this run covers (env.Releases), with the Tempest of the Debian
// release the services come from. tempest.conf follows the rendered
// config: multiple secret stores on (the operator always enables them).
// No test may fail; every skip needs a reason listed in keyManagerSkips.
func TestTempest(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, "tempest-"+strings.ReplaceAll(release, ".", ""), release, 0, nil)
			a := s.upToReady()
			poll.Must(t, env.Keystone.Endpoint("key-manager", "barbican", strings.TrimSuffix(a.URL, "/")))
			cloud := env.TempestCloud(t)
			cloud.KeyManager = &tempest.KeyManager{MultipleSecretStores: true}
			env.Tempest(t, cloud, `^barbican_tempest_plugin\.tests\.api`, keyManagerSkips)
		})
	}
}
