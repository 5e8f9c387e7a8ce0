package localsvc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ProcSpec describes one process.
type ProcSpec struct {
	// Name labels the process in errors and names its log file.
	Name string
	// Dir is the working directory; the log file is written there too.
	Dir string
	// Argv is the command line; Argv[0] is looked up on PATH.
	Argv []string
	// Env is the whole environment (nothing is inherited).
	Env []string
}

// Proc is a running process group.
type Proc struct {
	Name    string
	LogPath string

	cmd  *exec.Cmd
	done chan struct{}
	mu   sync.Mutex
	err  error
	// killedAt is when Start's reaper killed the rest of the group (the
	// leader had exited), in clock ticks since boot: the group's members
	// all started before it.
	killedAt uint64
}

// started remembers every process this package started, for Leftovers.
var started struct {
	sync.Mutex
	procs []*Proc
}

// Leftovers names the processes started here that still run: a leader
// that has not exited, or a member of its process group that outlived it.
// A suite calls it after its teardown to prove it left nothing running.
//
// A member counts only when it is not a zombie and started before Start's
// reaper killed the group: a killed member is a zombie until the machine's
// init reaps it (not at once: a second or more here), and once the leader
// is reaped its ID is free, so a later process group may carry it. Both
// were reported as left running before, though nothing of ours ran.
func Leftovers() []string {
	started.Lock()
	defer started.Unlock()
	var out []string
	for _, p := range started.procs {
		pid := p.cmd.Process.Pid
		if !p.Exited() {
			out = append(out, fmt.Sprintf("%s (pid %d)", p.Name, pid))
			continue
		}
		p.mu.Lock()
		killedAt := p.killedAt
		p.mu.Unlock()
		if left := groupMembers(pid, killedAt); len(left) > 0 {
			out = append(out, fmt.Sprintf("%s (pid %d exited; its group's %v still run)", p.Name, pid, left))
		}
	}
	return out
}

// BaseEnv is the environment every process starts from: the system's tools
// before any user-level interpreter (Debian's scripts need /usr/bin/python3).
func BaseEnv(home string) []string {
	return []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home, "LANG=C.UTF-8"}
}

// Start runs spec as the leader of a new process group; its output goes to
// <Dir>/<Name>.log. The group is killed if the test process dies, and when
// the leader exits (as a container's processes end with its PID 1).
//
// The kernel sends the parent-death signal when the thread that started
// the process ends, not the Go process (golang/go#27505): the process is
// started and waited for on one goroutine locked to its thread, so that the
// runtime cannot end that thread while the process runs.
func Start(spec ProcSpec) (*Proc, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("localsvc: empty command")
	}
	logPath := spec.Dir + "/" + spec.Name + ".log"
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	cmd := exec.Command(spec.Argv[0], spec.Argv[1:]...) //nolint:gosec // test harness runs what the suite asks for
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	cmd.Stdout, cmd.Stderr = f, f
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &Proc{Name: spec.Name, LogPath: logPath, cmd: cmd, done: make(chan struct{})}
	startErr := make(chan error, 1)
	go p.run(startErr)
	if err := <-startErr; err != nil {
		return nil, fmt.Errorf("starting %s: %w", spec.Name, err)
	}
	started.Lock()
	started.procs = append(started.procs, p)
	started.Unlock()
	return p, nil
}

// run starts the process, reports the start's error, and waits for the
// leader's exit on the same locked thread.
func (p *Proc) run(startErr chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := p.cmd.Start(); err != nil {
		startErr <- err
		return
	}
	startErr <- nil
	// Wait for the leader's exit without reaping it: while it is a zombie
	// its PID, the group's ID, cannot be reused, so killing what it left in
	// its group cannot hit another process. Then reap it.
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, p.cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil); !errors.Is(err, unix.EINTR) {
			break
		}
	}
	killedAt := bootTicks()
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	err := p.cmd.Wait()
	p.mu.Lock()
	p.err, p.killedAt = err, killedAt
	p.mu.Unlock()
	close(p.done)
}

// Run starts spec and waits for it, at most timeout; a process still running
// then is killed and reported as timed out.
func Run(spec ProcSpec, timeout time.Duration) (exitCode int, log string, err error) {
	p, err := Start(spec)
	if err != nil {
		return -1, "", err
	}
	select {
	case <-p.Done():
	case <-time.After(timeout):
		_ = p.Stop(0)
		return -1, p.Log(), fmt.Errorf("%s: still running after %s", spec.Name, timeout)
	}
	return p.ExitCode(), p.Log(), nil
}

// Done is closed when the process has exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// ExitCode is the exit status once exited: -1 while running or when killed
// by a signal.
func (p *Proc) ExitCode() int {
	if !p.Exited() {
		return -1
	}
	return p.cmd.ProcessState.ExitCode()
}

// Pid is the process (and process group) id.
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Signal sends sig to the whole process group while its leader runs (once
// it has exited, Start's reaper has killed the rest of the group and the
// group's ID may belong to another process).
func (p *Proc) Signal(sig syscall.Signal) error {
	if p.Exited() {
		return nil
	}
	err := syscall.Kill(-p.cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Stop sends SIGTERM to the group and waits up to grace for the leader to
// exit, then SIGKILLs the group. It returns an error when SIGKILL was needed.
func (p *Proc) Stop(grace time.Duration) error {
	return p.stop(grace, func() { _ = p.Signal(syscall.SIGTERM) })
}

// StopLikeRuntime stops the process the way a container runtime stops a
// container: SIGTERM to the leader only (the container's PID 1; its
// children hear of it from the leader, not from the signal), up to grace
// for the leader to exit, then SIGKILL to the whole group; the group also
// dies with its leader, as a container's PID namespace does. It returns an
// error when the leader had to be killed.
func (p *Proc) StopLikeRuntime(grace time.Duration) error {
	return p.stop(grace, func() { _ = p.cmd.Process.Signal(syscall.SIGTERM) })
}

// stop runs term, waits up to grace for the leader to exit (Start's reaper
// then kills the rest of the group) and else SIGKILLs the group.
func (p *Proc) stop(grace time.Duration, term func()) error {
	if grace > 0 {
		term()
		select {
		case <-p.done:
			return nil
		case <-time.After(grace):
		}
	}
	_ = p.Signal(syscall.SIGKILL)
	<-p.done
	if grace > 0 {
		return fmt.Errorf("%s did not exit within %s of SIGTERM; killed", p.Name, grace)
	}
	return nil
}

// Log returns what the process has written so far.
func (p *Proc) Log() string {
	b, err := os.ReadFile(p.LogPath)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// Tail is the end of what the process has written, for failure messages.
func (p *Proc) Tail() string { return Tail(p.Log()) }

// WaitLog waits until the log contains s n times or the process exits.
func (p *Proc) WaitLog(s string, n int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if strings.Count(p.Log(), s) >= n {
			return nil
		}
		if p.Exited() {
			return fmt.Errorf("%s exited (code %d) before logging %q ×%d:\n%s", p.Name, p.ExitCode(), s, n, Tail(p.Log()))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: %q ×%d not logged within %s:\n%s", p.Name, s, n, timeout, Tail(p.Log()))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Tail keeps the end of a log for error messages.
func Tail(s string) string {
	const max = 4000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}

// exitError reports a command that failed to run (err) or exited non-zero.
func exitError(what string, code int, err error, log string) error {
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", what, err, Tail(log))
	}
	return fmt.Errorf("%s exited with code %d:\n%s", what, code, Tail(log))
}
