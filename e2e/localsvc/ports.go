package localsvc

import (
	"fmt"
	"net"
	"net/http"
	"time"
)

// FreePort returns a TCP port free on 127.0.0.1 at the time of the call.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port, nil
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
