package localsvc

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FreePort returns a TCP port free on 127.0.0.1 for a server this process
// starts later (often much later: the e2e suites write the operator's
// webhook port into the chart before the operator is built). A port the
// kernel hands out for a ":0" bind can be handed out again, to another
// process, before the server binds it; two e2e suites run side by side, and
// one of them once got another's plain-HTTP server on its webhook port. So
// the port comes from the range just below the kernel's ephemeral ports,
// which ":0" binds and outgoing connections never get, and is locked for
// this process's lifetime (an flock on a file per port under the temporary
// directory), so no other process using FreePort takes it; the lock goes
// with the process.
func FreePort() (int, error) {
	portsMu.Lock()
	defer portsMu.Unlock()
	hi := ephemeralStart()
	lo := max(hi-portRange, 1024)
	dir := filepath.Join(os.TempDir(), "c5c3-e2e-ports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return 0, err
	}
	start := rand.IntN(hi - lo)
	for i := range hi - lo {
		port := lo + (start+i)%(hi-lo)
		if _, mine := portLocks[port]; mine {
			continue
		}
		f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			return 0, err
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			_ = f.Close() // another process holds it
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			_ = f.Close() // bound by something else
			continue
		}
		_ = l.Close()
		portLocks[port] = f
		return port, nil
	}
	return 0, fmt.Errorf("no free port in %d-%d", lo, hi-1)
}

// portRange is how many ports below the ephemeral range FreePort uses.
const portRange = 8192

var (
	portsMu sync.Mutex
	// portLocks holds this process's port locks open for its lifetime.
	portLocks = map[int]*os.File{}
)

// ephemeralStart is the first port of the kernel's ephemeral range
// (32768 when it cannot be read).
func ephemeralStart() int {
	raw, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	fields := strings.Fields(string(raw))
	if len(fields) == 0 {
		return 32768
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n <= 1024 {
		return 32768
	}
	return n
}

// WaitTCP waits until addr accepts connections, while the process runs.
func WaitTCP(p *Proc, addr string, timeout time.Duration) error {
	return waitFor(p, timeout, "listening on "+addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	})
}

// WaitHTTP waits until GET url answers status want, while the process runs.
func WaitHTTP(p *Proc, url string, want int, timeout time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	return waitFor(p, timeout, fmt.Sprintf("GET %s → %d", url, want), func() bool {
		resp, err := client.Get(url) //nolint:noctx // loopback poll with a client timeout
		if err != nil {
			return false
		}
		_ = resp.Body.Close()
		return resp.StatusCode == want
	})
}

func waitFor(p *Proc, timeout time.Duration, what string, ok func() bool) error {
	deadline := time.Now().Add(timeout)
	for !ok() {
		if p != nil && p.Exited() {
			return fmt.Errorf("%s exited (code %d) before %s:\n%s", p.Name, p.ExitCode(), what, Tail(p.Log()))
		}
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("not %s within %s", what, timeout)
			if p != nil {
				msg += ":\n" + Tail(p.Log())
			}
			return fmt.Errorf("%s", msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil
}
