package localsvc

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// named reports whether Leftovers names a process called name.
func named(name string) bool {
	return slices.ContainsFunc(Leftovers(), func(s string) bool { return strings.HasPrefix(s, name+" ") })
}

// A member that Start's reaper killed with the group is a zombie until its
// new parent reaps it. The test process stands in for a slow init here
// (a child subreaper that does not reap): the zombie stays, and Leftovers
// must not count it as running.
func TestLeftoversIgnoresAKilledMemberAwaitingItsReaper(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }()
	dir := t.TempDir()
	p, err := Start(ProcSpec{Name: "orphaning", Dir: dir, Env: BaseEnv(dir),
		Argv: []string{"/bin/sh", "-c", `sleep 60 & echo "child $!"; exit 0`}})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	child := childPid(t, p)
	defer func() { _, _ = unix.Wait4(child, nil, 0, nil) }()
	// The premise: the killed child is a zombie of this process.
	poll(t, func() bool {
		st, ok := readStat("/proc/" + strconv.Itoa(child) + "/stat")
		return ok && st.state == 'Z'
	}, "the killed child to be a zombie")
	if named("orphaning") {
		t.Fatalf("Leftovers counts a killed member awaiting its reaper as running: %v", Leftovers())
	}
}

// Once a leader is reaped, its process group's ID is free, and a new
// process group may get it: that group is not one of ours. The kernel's
// next PID is set so that a new group leader gets the exited leader's.
func TestLeftoversIgnoresAReusedGroupID(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(ProcSpec{Name: "shortlived", Dir: dir, Env: BaseEnv(dir), Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	pid := p.Pid()
	// Other processes of a busy machine (and this one's threads) take PIDs
	// between the write and the fork: try until one lands, for a while.
	var other *exec.Cmd
	for start := time.Now(); time.Since(start) < time.Minute; {
		if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(pid-1)), 0); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sleep", "60")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if cmd.Process.Pid == pid {
			other = cmd
			break
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	if other == nil {
		t.Fatalf("no new process got PID %d in a minute of tries (another process took it each time)", pid)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	if named("shortlived") {
		t.Fatalf("Leftovers counts another process group with the exited leader's ID as ours: %v", Leftovers())
	}
}

// Leftovers names a leader that runs, and no longer once it is stopped.
func TestLeftoversNamesARunningLeader(t *testing.T) {
	dir := t.TempDir()
	p, err := Start(ProcSpec{Name: "running", Dir: dir, Env: BaseEnv(dir), Argv: []string{"sleep", "60"}})
	if err != nil {
		t.Fatal(err)
	}
	if !named("running") {
		t.Fatalf("Leftovers does not name a running process: %v", Leftovers())
	}
	_ = p.Stop(10 * time.Second)
	if named("running") {
		t.Fatalf("Leftovers names a stopped process: %v", Leftovers())
	}
}

// groupMembers lists a group's running members that started before a time,
// and not a member once it is a zombie.
func TestGroupMembers(t *testing.T) {
	before := bootTicks()
	cmd := exec.Command("/bin/sh", "-c", `sleep 60 & echo $!; wait`)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() }()
	line := make([]byte, 32)
	n, _ := out.Read(line)
	child, err := strconv.Atoi(strings.TrimSpace(string(line[:n])))
	if err != nil {
		t.Fatalf("child pid %q: %v", line[:n], err)
	}
	leader := cmd.Process.Pid
	if got := groupMembers(leader, 0); !slices.Equal(sorted(got), sorted([]int{leader, child})) {
		t.Fatalf("groupMembers = %v, want the shell %d and its child %d", got, leader, child)
	}
	if got := groupMembers(leader, before); len(got) != 0 {
		t.Fatalf("groupMembers started before tick %d = %v, want none (both started later)", before, got)
	}
	// Killed while its stopped parent cannot reap it, the child is a zombie.
	_ = syscall.Kill(leader, syscall.SIGSTOP)
	_ = syscall.Kill(child, syscall.SIGKILL)
	poll(t, func() bool {
		st, ok := readStat("/proc/" + strconv.Itoa(child) + "/stat")
		return ok && st.state == 'Z'
	}, "the killed child to be a zombie")
	if got := groupMembers(leader, 0); !slices.Equal(got, []int{leader}) {
		t.Fatalf("groupMembers = %v, want only the shell %d (its child is a zombie)", got, leader)
	}
}

func sorted(s []int) []int { return slices.Sorted(slices.Values(s)) }

// childPid reads the "child <pid>" line a test's process logged.
func childPid(t *testing.T, p *Proc) int {
	t.Helper()
	for _, line := range strings.Split(p.Log(), "\n") {
		if pid, ok := strings.CutPrefix(line, "child "); ok {
			n, err := strconv.Atoi(pid)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no child pid in the log: %q", p.Log())
	return 0
}

// poll waits up to 10 s for ok.
func poll(t *testing.T, ok func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
	}
}
