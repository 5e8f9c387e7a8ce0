package harness

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/tempest"
)

// TempestCloud is the suite's Keystone as Tempest's admin sees it, and
// whether the services enforce token scope; the caller adds the services.
func (e *Env) TempestCloud(t *testing.T) tempest.Cloud {
	t.Helper()
	user, password, project := e.Keystone.AdminCredentials()
	scope, err := e.scopeEnforced()
	poll.Must(t, err)
	return tempest.Cloud{IdentityURL: e.Keystone.URL, Region: e.Keystone.Region,
		AdminUser: user, AdminPassword: password, AdminProject: project, EnforceScope: scope}
}

// scopeEnforced reports whether the services' oslo.policy enforces token
// scope by default: oslo.policy 4 (bookworm) has enforce_scope, off by
// default; from oslo.policy 5 the option is gone and scope is always
// enforced (sid). The operators do not render [oslo_policy] enforce_scope.
func (e *Env) scopeEnforced() (bool, error) {
	out, err := e.inRoot("/usr/bin/python3", "-c",
		"import oslo_policy.opts as o; print({x.name: x.default for x in o._options}.get('enforce_scope', True))").Output()
	if err != nil {
		return false, fmt.Errorf("asking oslo.policy for enforce_scope: %w", err)
	}
	return strings.TrimSpace(string(out)) == "True", nil
}

// Tempest runs the tests regex selects with the Tempest of the suite's
// Debian release and fails the test on any failed test and on any skip
// that skips does not explain. It logs the counts and the skip classes
// (what docs/<service>/tempest.md records), and on a failure Tempest's
// output and the end of its log.
func (e *Env) Tempest(t *testing.T, c tempest.Cloud, regex string, skips []tempest.Skip, exclude ...tempest.Exclusion) *tempest.Report {
	t.Helper()
	dir, err := os.MkdirTemp("", "tempest")
	poll.Must(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	r, out, err := tempest.Run(c, dir, tempest.Options{Root: e.Root, Regex: regex, Exclude: exclude})
	if err != nil {
		t.Fatalf("%v\n%s", err, localsvc.Tail(out))
	}
	for _, f := range r.With(tempest.Failed) {
		t.Errorf("failed: %s", f.ID)
	}
	for _, s := range r.Unexplained(skips) {
		t.Errorf("skipped without an accepted reason: %s: %s", s.ID, s.Reason)
	}
	if t.Failed() {
		logged, _ := os.ReadFile(filepath.Join(dir, "logs", "tempest.log"))
		t.Logf("tempest output:\n%s\ntempest.log (end):\n%s", out, localsvc.Tail(string(logged)))
	}
	t.Logf("%s on Debian %s: %d passed, %d failed, %d skipped", strings.TrimSuffix(strings.TrimSpace(e.versions("tempest", "glance-tempest-plugin", "barbican-tempest-plugin")), ";"), cmp.Or(e.Debian, "(this machine)"),
		len(r.With(tempest.Passed)), len(r.With(tempest.Failed)), len(r.With(tempest.Skipped)))
	for _, class := range r.SkipClasses(skips) {
		t.Logf("  %d skipped: %s", class.Count, class.Why)
	}
	for _, x := range exclude {
		t.Logf("  not run: %s: %s", x.Test, x.Why)
	}
	return r
}
