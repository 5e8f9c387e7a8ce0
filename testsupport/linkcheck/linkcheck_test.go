package linkcheck

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// testOnly reports whether a package is test support, which a production
// binary must not link.
func testOnly(pkg string) bool {
	switch {
	case strings.HasPrefix(pkg, "github.com/c5c3/openstack-operators/testsupport/"),
		strings.Contains(pkg, "/internal/fixture"),
		pkg == "testing", strings.HasPrefix(pkg, "testing/"),
		pkg == "net/http/httptest",
		strings.HasPrefix(pkg, "sigs.k8s.io/controller-runtime/pkg/envtest"):
		return true
	}
	return false
}

// linked lists the test-support packages among the dependencies of pkg,
// as `go list -deps` resolves them in the workspace at root.
func linked(t *testing.T, root, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, stderr.String())
	}
	var bad []string
	for _, dep := range strings.Fields(string(out)) {
		if testOnly(dep) {
			bad = append(bad, dep)
		}
	}
	return bad
}

func TestOperatorBinariesLinkNoTestSupport(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	// The check sees test support where it is linked: the suite runner of
	// the operators' controller tests links envtest and this module.
	if bad := linked(t, root, "./testsupport/runsuite"); len(bad) == 0 {
		t.Fatal("the check finds no test support in testsupport/runsuite's dependencies")
	}
	for _, op := range []string{"placement-operator", "glance-operator", "barbican-operator"} {
		if bad := linked(t, root, "./"+op+"/cmd"); len(bad) > 0 {
			t.Errorf("%s's binary links test support: %v", op, bad)
		}
	}
}
