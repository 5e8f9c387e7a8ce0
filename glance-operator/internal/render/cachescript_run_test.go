package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// stubs puts du, glance-cache-pruner and glance-cache-cleaner first in PATH.
// Each appends its name to $STUB/calls; du prints $STUB/du.out or fails
// silently when it is absent; the cache tools exit with $STUB/<tool>.rc.
func stubs(t *testing.T) (dir, bin string) {
	t.Helper()
	dir = t.TempDir()
	bin = filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	scripts := map[string]string{
		"du": `echo du >> "$STUB/calls"
[ -f "$STUB/du.out" ] || exit 1
cat "$STUB/du.out"`,
		"glance-cache-pruner": `echo "pruner $*" >> "$STUB/calls"
exit "$(cat "$STUB/pruner.rc" 2>/dev/null || echo 0)"`,
		"glance-cache-cleaner": `echo "cleaner $*" >> "$STUB/calls"
exit "$(cat "$STUB/cleaner.rc" 2>/dev/null || echo 0)"`,
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir, bin
}

// setFile replaces a stub input atomically, so a stub never reads it half-written.
func setFile(t *testing.T, dir, name, content string) {
	t.Helper()
	tmp := filepath.Join(dir, name+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// runLoop starts the script as the sidecar does (/bin/sh -eu -c) and returns
// its stderr and a channel closed when it exits; cleanup kills it.
func runLoop(t *testing.T, c cacheScript, stubDir, bin string) (*testenv.Buffer, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-eu", "-c", c.render())
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "STUB="+stubDir)
	stderr := &testenv.Buffer{}
	cmd.Stderr, cmd.Stdout = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return stderr, done
}

// waitFor polls until cond holds on the output, failing after 20 s or when
// the loop exits, which it must never do.
func waitFor(t *testing.T, what string, out *testenv.Buffer, done <-chan struct{}, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := out.String()
		if cond(s) {
			return s
		}
		select {
		case <-done:
			t.Fatalf("the loop exited while waiting for %s; output:\n%s", what, s)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; output:\n%s", what, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var failedLine = regexp.MustCompile(`glance-cache-maintenance failed: (\d+) consecutive, cache at (\d+) KiB of 1000\n`)

func TestCacheLoopCountsFailuresRecoversAndNeverExits(t *testing.T) {
	stubDir, bin := stubs(t)
	cacheDir := filepath.Join(stubDir, "cache")
	setFile(t, stubDir, "du.out", "5000\t"+cacheDir+"\n")
	setFile(t, stubDir, "pruner.rc", "1")
	c := cacheScript{cacheDir: cacheDir, configDir: "/etc/glance/glance-api.conf.d/", highWaterKiB: 1000,
		intervalSeconds: 1 << 40, sleep: "0.02", step: 1}
	out, done := runLoop(t, c, stubDir, bin)

	// Above the high water mark every poll is a pass; each failure counts up.
	s := waitFor(t, "three consecutive failures", out, done, func(s string) bool {
		return strings.Contains(s, "glance-cache-maintenance failed: 3 consecutive, cache at 5000 KiB of 1000\n")
	})
	for i, m := range failedLine.FindAllStringSubmatch(s, -1) {
		if m[1] != strconv.Itoa(i+1) || m[2] != "5000" {
			t.Errorf("failure line %d = %q, want count %d at 5000 KiB", i, m[0], i+1)
		}
	}

	// A successful pass reports the streak it ended, once.
	setFile(t, stubDir, "pruner.rc", "0")
	s = waitFor(t, "the recovery line", out, done, func(s string) bool {
		return strings.Contains(s, "glance-cache-maintenance recovered: after ")
	})
	fails := failedLine.FindAllStringSubmatch(s, -1)
	last := fails[len(fails)-1][1]
	if !strings.Contains(s, "glance-cache-maintenance recovered: after "+last+" consecutive failures\n") {
		t.Errorf("recovery does not name the streak of %s failures:\n%s", last, s)
	}
	passes := strings.Count(readCalls(t, stubDir), "cleaner ")
	waitForCalls(t, stubDir, done, "cleaner ", passes+3)
	if s := out.String(); strings.Count(s, "recovered") != 1 || len(failedLine.FindAllString(s, -1)) != len(fails) {
		t.Errorf("successful passes logged again:\n%s", s)
	}

	// A failing cleaner fails the pass too; the counter restarts at 1.
	setFile(t, stubDir, "cleaner.rc", "2")
	waitFor(t, "a cleaner failure", out, done, func(s string) bool {
		_, after, found := strings.Cut(s, "recovered")
		return found && strings.Contains(after, "failed: 1 consecutive, cache at 5000 KiB of 1000\n")
	})
	setFile(t, stubDir, "cleaner.rc", "0")
	waitFor(t, "a second recovery", out, done, func(s string) bool { return strings.Count(s, "recovered: after ") == 2 })

	// An unmeasurable cache is treated as full: a pass still runs.
	if err := os.Remove(filepath.Join(stubDir, "du.out")); err != nil {
		t.Fatal(err)
	}
	unmeasured := "glance-cache-maintenance unmeasured: could not measure " + cacheDir + "; running a pass anyway\n"
	waitFor(t, "the unmeasured line", out, done, func(s string) bool { return strings.Contains(s, unmeasured) })
	setFile(t, stubDir, "pruner.rc", "1")
	// Treated as full, the failure reports the high water mark as the usage.
	waitFor(t, "a failure while unmeasured", out, done, func(s string) bool {
		return strings.Contains(s, unmeasured+"glance-cache-maintenance failed: 1 consecutive, cache at 1000 KiB of 1000\n")
	})

	// Still running after all of it.
	select {
	case <-done:
		t.Fatalf("the loop exited:\n%s", out.String())
	default:
	}
	if calls := readCalls(t, stubDir); !strings.Contains(calls, "pruner --config-dir /etc/glance/glance-api.conf.d/\ncleaner --config-dir /etc/glance/glance-api.conf.d/\n") {
		t.Errorf("pruner then cleaner with the config dir not seen:\n%s", calls)
	}
}

func TestCacheLoopRunsOnTheIntervalBelowHighWater(t *testing.T) {
	stubDir, bin := stubs(t)
	setFile(t, stubDir, "du.out", "10\t/cache\n")
	c := cacheScript{cacheDir: "/cache", configDir: "/conf/", highWaterKiB: 1000, intervalSeconds: 3, sleep: "0.01", step: 1}
	out, done := runLoop(t, c, stubDir, bin)
	waitForCalls(t, stubDir, done, "cleaner ", 3)
	// Passes after every third poll; never on the size trigger.
	pass := "pruner --config-dir /conf/\ncleaner --config-dir /conf/\n"
	want := strings.Repeat("du\n", 4) + pass + strings.Repeat("du\n", 3) + pass + strings.Repeat("du\n", 3) + pass
	if calls := readCalls(t, stubDir); !strings.HasPrefix(calls, want) {
		t.Errorf("calls =\n%s\nwant prefix\n%s", calls, want)
	}
	if s := out.String(); s != "" {
		t.Errorf("successful passes logged:\n%s", s)
	}
}

func readCalls(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "calls"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func waitForCalls(t *testing.T, dir string, done <-chan struct{}, prefix string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(readCalls(t, dir), prefix) < n {
		select {
		case <-done:
			t.Fatalf("the loop exited before %d %q calls", n, prefix)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %d %q calls:\n%s", n, prefix, readCalls(t, dir))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The production script polls every 30 s and measures the spec's directory.
func TestCacheMaintenanceScriptProductionValues(t *testing.T) {
	s := CacheMaintenanceScript(8589934592, 300)
	for _, want := range []string{
		"dir='/var/lib/glance/image-cache'\n", "conf='/etc/glance/glance-api.conf.d/'\n",
		"high=8388608\n", "interval=300\n", "sleep 30 & wait $! || :\n", "trap 'exit 0' TERM INT\n", "elapsed=$((elapsed + 30))\n",
		`du -sk --exclude=incomplete --exclude=invalid --exclude=queue "$dir"`,
		`glance-cache-pruner --config-dir "$conf" || rc=$?`, `glance-cache-cleaner --config-dir "$conf" || rc=$?`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	if out, err := exec.Command("/bin/sh", "-n", "-c", s).CombinedOutput(); err != nil {
		t.Errorf("sh -n: %v: %s", err, out)
	}
}

// The loop is its container's PID 1, for which the kernel drops a SIGTERM
// the process has no handler for: without its trap the pod's stop would
// wait out the grace period for the SIGKILL. Run as PID 1 of a new PID
// namespace (root, as the suites run), it exits 0 on SIGTERM while it
// sleeps (a 600 s sleep here, far beyond the wait).
func TestCacheLoopStopsOnSIGTERMAsPID1(t *testing.T) {
	stubDir, bin := stubs(t)
	c := cacheScript{cacheDir: "/cache", configDir: "/conf/", highWaterKiB: 1000, intervalSeconds: 1 << 40, sleep: "600", step: 600}
	cmd := exec.Command("unshare", "--pid", "--fork", "--", "/bin/sh", "-eu", "-c", c.render())
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "STUB="+stubDir)
	out := &testenv.Buffer{}
	cmd.Stderr, cmd.Stdout = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// The loop's first du means it runs (as the child of unshare, PID 1 of
	// its namespace), past its trap and on to its sleep.
	waitForCalls(t, stubDir, exited, "du", 1)
	children, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "task", strconv.Itoa(cmd.Process.Pid), "children"))
	if err != nil {
		t.Fatal(err)
	}
	pid1, err := strconv.Atoi(strings.TrimSpace(string(children)))
	if err != nil {
		t.Fatalf("unshare's child: %q: %v", children, err)
	}
	if err := syscall.Kill(pid1, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("the loop ended with %v on SIGTERM, want exit 0:\n%s", waitErr, out.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the loop, as PID 1, ignored SIGTERM in its sleep:\n%s", out.String())
	}
}
