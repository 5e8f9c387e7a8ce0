package localsvc

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func TestStopDrainsOnSIGTERM(t *testing.T) {
	p, err := Start(ProcSpec{Name: "sleeper", Dir: t.TempDir(), Argv: []string{"sleep", "60"}, Env: BaseEnv(t.TempDir())})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(10 * time.Second); err != nil {
		t.Fatalf("sleep ignores nothing, yet Stop reported: %v", err)
	}
	if !p.Exited() {
		t.Fatal("not exited after Stop")
	}
}

func TestStopKillsTheGroupAfterTheGrace(t *testing.T) {
	dir := t.TempDir()
	// The shell ignores SIGTERM and leaves a child in its process group.
	p, err := Start(ProcSpec{Name: "stubborn", Dir: dir, Argv: []string{"/bin/sh", "-c", `trap "" TERM; sleep 60 & echo started; wait`}, Env: BaseEnv(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WaitLog("started", 1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.Stop(300 * time.Millisecond); err == nil {
		t.Fatal("Stop of a process ignoring SIGTERM reported a clean exit")
	}
	deadline := time.Now().Add(5 * time.Second)
	for slices.ContainsFunc(Leftovers(), func(s string) bool { return strings.HasPrefix(s, "stubborn") }) {
		if time.Now().After(deadline) {
			t.Fatalf("process group still alive after SIGKILL: %v", Leftovers())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A runtime signals the container's main process only: a child that would
// note a SIGTERM never gets one (the leader lingers 0.5 s, long enough for
// the child's trap to run had the group been signalled), and it is killed
// with the group once the leader has exited.
func TestStopLikeRuntimeSignalsTheLeaderOnly(t *testing.T) {
	dir := t.TempDir()
	child := `trap "echo child-got-term" TERM; while :; do sleep 0.05; done`
	p, err := Start(ProcSpec{Name: "leader", Dir: dir, Env: BaseEnv(dir), Argv: []string{"/bin/sh", "-c",
		`/bin/sh -c '` + child + `' & trap 'echo leader-got-term; sleep 0.5; exit 0' TERM; echo started; while :; do sleep 0.05; done`}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WaitLog("started", 1, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := p.StopLikeRuntime(10 * time.Second); err != nil {
		t.Fatalf("the leader exits on SIGTERM, yet: %v", err)
	}
	log := p.Log()
	if !strings.Contains(log, "leader-got-term") || strings.Contains(log, "child-got-term") {
		t.Fatalf("want SIGTERM for the leader only; log:\n%s", log)
	}
	deadline := time.Now().Add(5 * time.Second)
	for slices.ContainsFunc(Leftovers(), func(s string) bool { return strings.HasPrefix(s, "leader") }) {
		if time.Now().After(deadline) {
			t.Fatalf("the leader's child outlived the stop: %v", Leftovers())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestRunReportsExitCodeAndTimeout(t *testing.T) {
	dir := t.TempDir()
	code, log, err := Run(ProcSpec{Name: "exit3", Dir: dir, Argv: []string{"/bin/sh", "-c", "echo out; exit 3"}, Env: BaseEnv(dir)}, 10*time.Second)
	if err != nil || code != 3 || !strings.Contains(log, "out") {
		t.Fatalf("Run = %d, %q, %v; want 3 with the output", code, log, err)
	}
	if _, _, err := Run(ProcSpec{Name: "slow", Dir: dir, Argv: []string{"sleep", "60"}, Env: BaseEnv(dir)}, 200*time.Millisecond); err == nil {
		t.Fatal("Run of a command outliving its timeout reported no error")
	}
}

// TestContainerSeesVolumesAtTheirMountPaths runs a command in its own mount
// namespace (needs root, as the suites do) and checks it reads the volume
// at the mount path, read-only, while the host path stays untouched.
func TestContainerSeesVolumesAtTheirMountPaths(t *testing.T) {
	dir := t.TempDir()
	vol := filepath.Join(dir, "vol")
	if err := writeItems(vol, map[string][]byte{"a.conf": []byte("from-volume"), "skip": []byte("x")},
		[]corev1.KeyToPath{{Key: "a.conf", Path: "sub/a.conf"}}, new(int32(0o640))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(vol, "skip")); !os.IsNotExist(err) {
		t.Fatal("a key not listed in items was written")
	}
	if fi, err := os.Stat(filepath.Join(vol, "sub", "a.conf")); err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("item file: %v, %v; want mode 0640", fi, err)
	}
	target := filepath.Join("/tmp", fmt.Sprintf("localsvc-mount-test-%d", os.Getpid()))
	ct := &Container{Name: "reader", Env: BaseEnv(dir), Mounts: []Mount{{Source: vol, Target: target, ReadOnly: true}},
		Argv: []string{"/bin/sh", "-c", "cat " + target + "/sub/a.conf; touch " + target + "/new 2>/dev/null && echo writable || echo read-only"}}
	t.Cleanup(func() { _ = os.Remove(target) })
	if err := ct.MountPoints(); err != nil {
		t.Fatal(err)
	}
	code, log, err := ct.Run(dir, 30*time.Second)
	if err != nil || code != 0 {
		t.Fatalf("container run: %d, %v\n%s", code, err, log)
	}
	if !strings.Contains(log, "from-volume") || !strings.Contains(log, "read-only") {
		t.Fatalf("container output %q, want the volume's content and a read-only mount", log)
	}
	if entries, err := os.ReadDir(target); err != nil || len(entries) != 0 {
		t.Fatalf("host mount point %s: %v, %v; want it kept and empty", target, entries, err)
	}
}

// Two containers mount volumes at the same new path; the first ends and is
// released while the second runs: the second still reads its volume (a
// removed mount point would have been unmounted under it).
func TestReleasedContainerLeavesOthersMounts(t *testing.T) {
	target := filepath.Join("/tmp", fmt.Sprintf("localsvc-shared-mount-%d", os.Getpid()))
	t.Cleanup(func() { _ = os.Remove(target) })
	prepared := func(content string) *Prepared {
		dir := t.TempDir()
		vol := filepath.Join(dir, "vol")
		if err := writeItems(vol, map[string][]byte{"a.conf": []byte(content)}, nil, nil); err != nil {
			t.Fatal(err)
		}
		ct := &Container{Name: content, Env: BaseEnv(dir), Mounts: []Mount{{Source: vol, Target: target, ReadOnly: true}}}
		if err := ct.MountPoints(); err != nil {
			t.Fatal(err)
		}
		return &Prepared{Container: ct, Dir: dir}
	}
	second := prepared("second")
	gate := filepath.Join(second.Dir, "go")
	second.Argv = []string{"/bin/sh", "-c", "echo started; while [ ! -e " + gate + " ]; do sleep 0.05; done; cat " + target + "/a.conf"}
	proc, err := second.Start()
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.WaitLog("started", 1, time.Minute); err != nil {
		t.Fatal(err)
	}

	first := prepared("first")
	first.Argv = []string{"cat", target + "/a.conf"}
	if code, log, err := first.Run(first.Dir, 30*time.Second); err != nil || code != 0 || log != "first" {
		t.Fatalf("first container: %d, %v, %q", code, err, log)
	}
	first.Release()

	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	<-proc.Done()
	if log := proc.Log(); proc.ExitCode() != 0 || !strings.Contains(log, "second") {
		t.Fatalf("second container after the first's release: exit %d, %q; want its volume's content", proc.ExitCode(), log)
	}
}

// TestContainerResolvesItsHosts: the container's names resolve to
// loopback, in the absolute form (trailing dot) too, as cluster DNS answers
// both; a name given with another loopback address resolves there.
func TestContainerResolvesItsHosts(t *testing.T) {
	hosts := []string{"mariadb.ns.svc", HostAt("bao.ns.svc", "127.0.0.3")}
	for name, want := range map[string]string{"mariadb.ns.svc": "127.0.0.1", "mariadb.ns.svc.": "127.0.0.1",
		"bao.ns.svc": "127.0.0.3", "bao.ns.svc.": "127.0.0.3"} {
		dir := t.TempDir() // a log of its own
		ct := &Container{Name: "resolver", Env: BaseEnv(dir), Hosts: hosts, Argv: []string{"getent", "ahostsv4", name}}
		code, log, err := ct.Run(dir, 30*time.Second)
		if err != nil || code != 0 || strings.Fields(log + " -")[0] != want {
			t.Fatalf("getent %s in the container: %d, %v, %q; want %s", name, code, err, log, want)
		}
	}
	if out, _ := os.ReadFile("/etc/hosts"); strings.Contains(string(out), "ns.svc") {
		t.Fatal("the machine's /etc/hosts was changed")
	}
}

// TestContainerRunsInARoot runs a command in the newer Debian release's
// root filesystem (hack/rootfs.sh): it sees that release, its volume at
// the mount path (the path made inside the root, not on the machine), the
// hosts of its namespace, and starts in its own directory.
func TestContainerRunsInARoot(t *testing.T) {
	root, err := testenv.DebianRoot("sid")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	vol := filepath.Join(dir, "vol")
	if err := os.MkdirAll(vol, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vol, "a.conf"), []byte("from-volume"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := "/etc/localsvc-root-test-" + filepath.Base(dir)
	ct := &Container{Name: "in-root", Env: BaseEnv(dir), Root: root, Hosts: []string{"mariadb.ns.svc"},
		Mounts: []Mount{{Source: vol, Target: target, ReadOnly: true}},
		Argv:   []string{"/bin/sh", "-c", "cat /etc/debian_version; cat " + target + "/a.conf; echo; pwd; getent hosts mariadb.ns.svc"}}
	code, log, err := ct.Run(dir, time.Minute)
	if err != nil || code != 0 {
		t.Fatalf("container run: %d, %v\n%s", code, err, log)
	}
	host, err := os.ReadFile("/etc/debian_version")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(log, "\n")
	if len(lines) < 4 || lines[0] == strings.TrimSpace(string(host)) || lines[1] != "from-volume" || lines[2] != dir ||
		!strings.HasPrefix(lines[3], "127.0.0.1") {
		t.Fatalf("container output %q: want the root's Debian version (not %q), the volume, %s and the namespace's hosts",
			log, strings.TrimSpace(string(host)), dir)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("mount point %s made on the machine, not in the root: %v", target, err)
	}
}

// TestFreePortIsOutsideTheEphemeralRangeAndLocked: the ports FreePort
// hands out are distinct, below the range the kernel gives ":0" binds, free
// to bind, and locked against other processes (a second lock on a port's
// file, as another process would take it, is refused).
func TestFreePortIsOutsideTheEphemeralRangeAndLocked(t *testing.T) {
	seen := map[int]bool{}
	for range 50 {
		port, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if seen[port] {
			t.Fatalf("port %d handed out twice", port)
		}
		seen[port] = true
		if port >= ephemeralStart() || port < 1024 {
			t.Errorf("port %d outside [1024, %d)", port, ephemeralStart())
		}
		f, err := os.Open(filepath.Join(os.TempDir(), "c5c3-e2e-ports", strconv.Itoa(port)))
		if err != nil {
			t.Fatal(err)
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			t.Errorf("port %d is not locked", port)
		}
		_ = f.Close()
	}
	for port := range seen {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Errorf("port %d cannot be bound: %v", port, err)
			continue
		}
		_ = l.Close()
	}
}
