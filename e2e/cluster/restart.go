package cluster

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// StopGrace is how long Restart lets a component stop on SIGTERM before it
// kills it, as a kubelet ends a static pod after its grace period. The API
// server would otherwise drain its watches for a minute.
const StopGrace = 5 * time.Second

// Restart stops a control-plane component (etcd, kube-apiserver, ...) and
// starts it again with the same command line, working directory and log
// file, as the kubelet restarts a static pod: SIGTERM, SIGKILL after
// StopGrace, then a new process in its own session, whose pid replaces the
// old one in kwokctl's pid file (hack/cluster.sh down stops it by that
// file). It returns once the new process listens on its ports; the caller
// waits for it to serve. The components keep their data (etcd's data
// directory, the PKI).
//
// From the stop until the new process listens it holds hack/cluster.sh's
// lock: a cluster created meanwhile (suites run side by side) would
// otherwise see the stopped component's ports free, take them, and the
// component could never start again.
func (c *Cluster) Restart(component string) error {
	if c.external {
		return errors.New("restarting a control-plane component is implemented for the local control plane only, not for kind")
	}
	kwok := filepath.Join(c.root, ".cache", "kwok")
	unlock, err := lockPorts(filepath.Join(kwok, "up.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	dir := filepath.Join(kwok, "clusters", c.Name)
	pidFile := filepath.Join(dir, "pids", component+".pid")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return fmt.Errorf("%s of cluster %s: %w", component, c.Name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("pid file %s: %w", pidFile, err)
	}
	argv, err := cmdline(pid)
	if err != nil {
		return fmt.Errorf("%s (pid %d) is not running: %w", component, pid, err)
	}
	if err := stop(pid, StopGrace); err != nil {
		return fmt.Errorf("stopping %s (pid %d): %w", component, pid, err)
	}
	logFile, err := os.OpenFile(filepath.Join(dir, "logs", component+".log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own session: the component outlives the test binary, as the one
	// kwokctl started does, until hack/cluster.sh down stops it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s again: %w", component, err)
	}
	// Reaped here while the test runs; adopted by init after it.
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
		return err
	}
	return listening(component, listenAddrs(argv), exited)
}

// lockPorts takes the lock hack/cluster.sh up holds while a cluster picks
// and binds its ports.
func lockPorts(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { _ = f.Close() }, nil
}

// listenAddrs reads the addresses a component listens on from its command
// line: etcd's client and peer URLs, the secure port of the API server,
// controller manager and scheduler, kwok's server address.
func listenAddrs(argv []string) []string {
	var addrs []string
	for _, a := range argv {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		switch name {
		case "--listen-client-urls", "--listen-peer-urls":
			for _, u := range strings.Split(value, ",") {
				if _, hostPort, ok := strings.Cut(u, "://"); ok {
					addrs = append(addrs, hostPort)
				}
			}
		case "--secure-port":
			addrs = append(addrs, "127.0.0.1:"+value)
		case "--server-address":
			addrs = append(addrs, value)
		}
	}
	return addrs
}

// listening waits until every address accepts a connection. A component
// that exits first (a port taken after all) is an error naming its log; one
// that neither listens nor exits within three minutes is too.
func listening(component string, addrs []string, exited <-chan struct{}) error {
	deadline := time.Now().Add(3 * time.Minute)
	for _, addr := range addrs {
		for {
			if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
				_ = conn.Close()
				break
			}
			select {
			case <-exited:
				return fmt.Errorf("%s exited after its restart before listening on %s; see its log", component, addr)
			case <-time.After(100 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s does not listen on %s three minutes after its restart", component, addr)
			}
		}
	}
	return nil
}

// cmdline is a running process's argv.
func cmdline(pid int) ([]string, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil {
		return nil, err
	}
	argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("no command line (a zombie?)")
	}
	return argv, nil
}

// stop sends SIGTERM, then SIGKILL after grace, and waits until the process
// is gone (or a zombie whose parent has not reaped it yet).
func stop(pid int, grace time.Duration) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return err
	}
	if gone(pid, grace) {
		return nil
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	if gone(pid, time.Minute) {
		return nil
	}
	return errors.New("still running a minute after SIGKILL")
}

// gone waits up to within for the process to end.
func gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for alive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// alive reports whether any thread of the process still runs. A zombie
// thread-group leader is not enough to call it gone: the other threads may
// still be exiting and holding the process's sockets (a new etcd then fails
// to bind its port). It is gone once it is reaped, or once its leader is a
// zombie with no other thread left.
func alive(pid int) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses, which may hold spaces.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) || s[i+2] != 'Z' {
		return true
	}
	tasks, err := os.ReadDir(filepath.Join(dir, "task"))
	return err == nil && len(tasks) > 1
}
