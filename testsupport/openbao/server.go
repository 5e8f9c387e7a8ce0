// Package openbao starts a real OpenBao-compatible server for tests: the
// HashiCorp Vault v1.13.0 binary hack/tools.sh builds from the Go module proxy
// (same HTTP API for KV v2, AppRole, Kubernetes auth and capabilities-self),
// and shapes it the way a managed OpenBaoCluster or a brownfield server is
// shaped.
//
// The server runs in production mode, not dev mode: file storage in the
// server's directory (so Halt and Resume keep its mounts, roles and secret
// IDs, as a restarted server keeps them) and a TCP listener with a
// certificate for 127.0.0.1 signed by a CA generated here, so a test knows
// the exact trust anchor and can hand a client the wrong one.
// Start initialises it with a single key share, unseals it and keeps the root
// token for configuration calls. Dev mode would need its own listener on a
// fixed port beside ours and mints a CA of its own with -dev-tls.
//
// Worth knowing: Vault 1.13 answers an AppRole login with an unknown,
// destroyed or expired secret ID with HTTP 500 "invalid secret id" (OpenBao
// and later Vault: 400), and, with the default user lockout, five such
// refusals in a row lock the role ID out for 15 minutes with 403, valid pairs
// included (see DisableUserLockout).
package openbao

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Server is one running server with its own CA.
type Server struct {
	// URL is the https base URL, e.g. https://127.0.0.1:40123 (no /v1).
	URL string
	// CAPEM is the PEM CA that signed the server certificate; nothing else
	// verifies it.
	CAPEM []byte
	// RootToken is the initial root token, used by Call and the
	// configuration helpers.
	RootToken string

	client    *http.Client
	tls       serverTLS
	bin       string
	cfgPath   string
	logPath   string
	unsealKey string

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
	stopped bool
}

// errExitedEarly marks a server that quit before it answered, usually because
// another process took the port between our probe and its bind.
var errExitedEarly = errors.New("vault exited before answering")

// Start builds the binary when missing, starts a server on a free loopback
// port, initialises and unseals it, and stops it when the test ends. Any
// failure fails the test; the server's log is printed when the test failed.
func Start(t testing.TB) *Server { t.Helper(); return StartWith(t, Options{}) }

// Options shape a server.
type Options struct {
	// DNSNames are names its certificate carries besides 127.0.0.1 and
	// localhost: an in-cluster Service name such as <instance>.<ns>.svc,
	// which a test maps to the server's loopback address.
	DNSNames []string
	// Address is the host:port to listen on ("": a free port on
	// 127.0.0.1): a fixed in-cluster port (8200) that processes reach
	// through a hosts file. The host may be another loopback address
	// (127.0.0.2, ...), so that servers of suites running side by side can
	// all listen on the in-cluster port; the certificate names it.
	Address string
}

// StartWith is Start with options.
func StartWith(t testing.TB, o Options) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := Run(ctx, t.TempDir(), o)
	if s != nil {
		t.Cleanup(func() {
			s.Stop()
			if t.Failed() {
				logged, _ := os.ReadFile(s.logPath)
				t.Logf("vault log (%s):\n%s", s.logPath, logged)
			}
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Run is StartWith for a program that is not a test (make run's stand-ins):
// the server's files go to dir, and the caller stops it. On an error after
// the process started, the server is returned too, for Stop.
func Run(ctx context.Context, dir string, o Options) (*Server, error) {
	bin, err := testenv.Tool("vault")
	if err != nil {
		return nil, fmt.Errorf("building vault: %w", err)
	}
	var ip net.IP
	if o.Address != "" {
		host, _, err := net.SplitHostPort(o.Address)
		if err != nil {
			return nil, fmt.Errorf("address %q: %w", o.Address, err)
		}
		ip = net.ParseIP(host)
	}
	pki, err := newServerTLS(dir, ip, o.DNSNames...)
	if err != nil {
		return nil, fmt.Errorf("generating the server's CA: %w", err)
	}
	var s *Server
	for attempt := 0; attempt < 3; attempt++ {
		s, err = launch(ctx, bin, dir, pki, o.Address)
		if !errors.Is(err, errExitedEarly) || o.Address != "" {
			break
		}
	}
	if err != nil {
		return s, fmt.Errorf("starting vault: %w", err)
	}
	if err := s.initialise(ctx); err != nil {
		return s, fmt.Errorf("initialising vault: %w", err)
	}
	return s, nil
}

// launch starts the process on addr (a fresh port when "") and waits until
// it answers HTTP.
func launch(ctx context.Context, bin, dir string, pki serverTLS, addr string) (*Server, error) {
	if addr == "" {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		addr = fmt.Sprintf("127.0.0.1:%d", port)
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	// Vault binds a cluster listener too (port+1 unless told otherwise).
	clusterPort, err := freePort()
	if err != nil {
		return nil, err
	}
	// A directory used before (make run's) holds an old server's data and
	// log: this server starts empty.
	cfgPath := filepath.Join(dir, fmt.Sprintf("server-%s.hcl", port))
	dataPath, logPath := filepath.Join(dir, "data-"+port), filepath.Join(dir, fmt.Sprintf("vault-%s.log", port))
	for _, p := range []string{dataPath, logPath} {
		if err := os.RemoveAll(p); err != nil {
			return nil, err
		}
	}
	config := fmt.Sprintf(`storage "file" {
  path = %q
}
listener "tcp" {
  address         = %q
  cluster_address = "127.0.0.1:%d"
  tls_cert_file   = %q
  tls_key_file    = %q
}
api_addr      = "https://%s"
disable_mlock = true
ui            = false
`, dataPath, addr, clusterPort, pki.certFile, pki.keyFile, addr)
	if err := os.WriteFile(cfgPath, []byte(config), 0o600); err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pki.caPEM)
	s := &Server{
		URL:     "https://" + addr,
		CAPEM:   pki.caPEM,
		client:  newHTTPClient(pool),
		tls:     pki,
		bin:     bin,
		cfgPath: cfgPath,
		logPath: logPath,
	}
	if err := s.start(); err != nil {
		return nil, err
	}
	if err := s.waitAnswering(ctx); err != nil {
		s.Stop()
		return s, err
	}
	return s, nil
}

// start runs the process with the server's config, appending to its log.
func (s *Server) start() error {
	logFile, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bin, "server", "-config="+s.cfgPath)
	cmd.Env = serverEnv()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return fmt.Errorf("starting %s: %w", s.bin, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(exited)
	}()
	s.mu.Lock()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	return nil
}

// serverEnv is the test's environment without VAULT_* and BAO_* variables, so
// a test that poisons those for its client does not reconfigure the server.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "VAULT_") || strings.HasPrefix(kv, "BAO_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close() //nolint:errcheck
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitAnswering polls sys/health until the listener answers with any status
// (an uninitialised server answers 501), or the process exits.
func (s *Server) waitAnswering(ctx context.Context) error {
	return s.poll(ctx, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/v1/sys/health", nil)
		if err != nil {
			return err
		}
		resp, err := s.client.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// poll retries f every 50 ms until it succeeds, the process exits or ctx ends.
func (s *Server) poll(ctx context.Context, f func() error) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f()
		if err == nil {
			return nil
		}
		s.mu.Lock()
		exited := s.exited
		s.mu.Unlock()
		select {
		case <-exited:
			return fmt.Errorf("%w (log %s): %w", errExitedEarly, s.logPath, err)
		case <-ctx.Done():
			return fmt.Errorf("%w: last error: %w", ctx.Err(), err)
		case <-tick.C:
		}
	}
}

// initialise creates the barrier with one key share, unseals it and waits
// until the server reports itself active.
func (s *Server) initialise(ctx context.Context) error {
	var initOut struct {
		Keys      []string `json:"keys_base64"`
		RootToken string   `json:"root_token"`
	}
	in := map[string]int{"secret_shares": 1, "secret_threshold": 1}
	if err := s.CallAs(ctx, "", http.MethodPut, "sys/init", in, &initOut); err != nil {
		return err
	}
	if len(initOut.Keys) != 1 || initOut.RootToken == "" {
		return fmt.Errorf("sys/init returned %d keys and root token set %t", len(initOut.Keys), initOut.RootToken != "")
	}
	s.RootToken, s.unsealKey = initOut.RootToken, initOut.Keys[0]
	return s.unseal(ctx)
}

// unseal unseals the barrier with the key share kept at initialisation and
// waits until the server reports itself active.
func (s *Server) unseal(ctx context.Context) error {
	if err := s.CallAs(ctx, "", http.MethodPut, "sys/unseal", map[string]string{"key": s.unsealKey}, nil); err != nil {
		return err
	}
	// 200 only once unsealed and active; 503/429 before.
	return s.poll(ctx, func() error { return s.CallAs(ctx, "", http.MethodGet, "sys/health", nil, nil) })
}

// Halt kills the server, as a crashed or stopped server goes away, and waits
// for it to exit; its data stays for Resume. Halting a halted or stopped
// server does nothing.
func (s *Server) Halt() {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.mu.Unlock()
	_ = cmd.Process.Kill()
	<-exited
}

// Resume starts a halted server again on the same address with the same
// data and certificate, unseals it with the kept key share and waits until
// it is active: every mount, policy, role, secret ID and token it had is
// there again. It refuses a server that runs or was stopped.
func (s *Server) Resume(ctx context.Context) error {
	s.mu.Lock()
	exited, stopped := s.exited, s.stopped
	s.mu.Unlock()
	if stopped {
		return errors.New("resuming a stopped server")
	}
	select {
	case <-exited:
	default:
		return errors.New("resuming a server that runs")
	}
	if err := s.start(); err != nil {
		return err
	}
	if err := s.waitAnswering(ctx); err != nil {
		return fmt.Errorf("resuming vault: %w", err)
	}
	if err := s.unseal(ctx); err != nil {
		return fmt.Errorf("unsealing vault: %w", err)
	}
	return nil
}

// Stop kills the server for good and waits for it to exit; the port then
// refuses connections. Calling it again does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.Halt()
}
