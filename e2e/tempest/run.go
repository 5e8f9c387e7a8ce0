package tempest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// Options select what a run runs and where.
type Options struct {
	// Root is the root filesystem whose Tempest and plugins run (a newer
	// Debian release, hack/rootfs.sh); "" runs the machine's.
	Root string
	// Regex selects the tests (tempest run --regex).
	Regex string
	// Concurrency is the number of test workers (2 when 0).
	Concurrency int
	// Exclude are tests not run, each with its reason.
	Exclude []Exclusion
}

// Exclusion is a test left out of a run because it contradicts the
// documented behaviour of the service version under test (not a gap of the
// deployment: those run and fail).
type Exclusion struct {
	// Test matches the test's id.
	Test string
	Why  string
}

// hang bounds a run that stopped making progress: Tempest bounds each of
// its own waits (build_timeout, 300 s), so a run longer than this is stuck.
const hang = 30 * time.Minute

// Tempest's tests as Debian installs them; the same path in a newer root.
const tempestDir = "/usr/lib/python3/dist-packages/tempest"

// Run writes a workspace into dir (etc/tempest.conf, .stestr.conf, logs,
// locks) and runs Tempest there. dir must be under /tmp when o.Root is set:
// the root sees the machine's /tmp. It returns the report and Tempest's
// output; an error when Tempest did not run its tests or its output does
// not add up. Failed tests are in the report, not an error.
func Run(c Cloud, dir string, o Options) (*Report, string, error) {
	for _, d := range []string{"etc", "logs", "lock"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, "", err
		}
	}
	// Tempest reads ./etc/tempest.conf (TEMPEST_CONFIG_DIR or --config-file
	// make tempest 33 register its options twice and stop at discovery).
	stestr := fmt.Sprintf("[DEFAULT]\ntest_path=%s/test_discover\ntop_dir=%s\ngroup_regex=([^\\.]*\\.)*\n", tempestDir, tempestDir)
	files := map[string]string{"etc/tempest.conf": c.Conf(dir), ".stestr.conf": stestr}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			return nil, "", err
		}
	}
	workers := o.Concurrency
	if workers == 0 {
		workers = 2
	}
	argv := []string{"tempest", "run", "--regex", o.Regex, "--concurrency", strconv.Itoa(workers)}
	if len(o.Exclude) > 0 {
		tests := make([]string, len(o.Exclude))
		for i, e := range o.Exclude {
			tests[i] = e.Test
		}
		argv = append(argv, "--exclude-regex", "("+strings.Join(tests, "|")+")")
	}
	ct := &localsvc.Container{Name: "tempest", Root: o.Root, Env: localsvc.BaseEnv(dir), Argv: argv}
	code, out, err := ct.Run(dir, hang)
	if err != nil {
		return nil, out, fmt.Errorf("running tempest: %w", err)
	}
	r, err := Parse(out)
	if err != nil {
		return r, out, fmt.Errorf("tempest exited %d: %w", code, err)
	}
	if code != 0 && len(r.With(Failed)) == 0 {
		return r, out, fmt.Errorf("tempest exited %d with no failed test", code)
	}
	return r, out, nil
}
