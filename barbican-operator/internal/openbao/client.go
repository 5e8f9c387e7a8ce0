// Package openbao is the store controller's OpenBao client: exactly the HTTP
// calls of the BarbicanSecretStore contract (kubernetes and AppRole login,
// mount check, role-id read, secret-id mint, capabilities-self, revoke-self),
// each with its own timeout, no retries, TLS verified against the store's CA
// bundle alone, and nothing taken from BAO_* or VAULT_* environment variables.
package openbao

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openbao/openbao/api/v2"
)

// DefaultTimeout bounds each call when Config.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// Config says where the server is and how to trust it.
type Config struct {
	// URL is the server's https base URL, without /v1.
	URL string
	// CAPEM is the PEM bundle that alone verifies the server; nil means the
	// system trust store.
	CAPEM []byte
	// Namespace is sent as X-Vault-Namespace on every call; "" sends none.
	Namespace string
	// Timeout bounds each call; 0 means DefaultTimeout.
	Timeout time.Duration
	// Dial opens the connections; nil dials the URL's host. An operator run
	// outside the cluster maps an instance's Service name to an address it
	// reaches (--resolve); TLS still verifies the URL's host.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Client talks to one server. It holds no token: each login returns a
// Session. Safe for concurrent use.
type Client struct {
	api     *api.Client
	timeout time.Duration
}

// New builds a client from cfg alone. The api package's DefaultConfig and a
// NewClient given no config read BAO_*/VAULT_* variables (address, token,
// namespace, CA, TLS skip-verify, retries, rate limit, proxy); this starts
// from NewConfig, which does not, and sets every such field explicitly.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("OpenBao URL %q is not an https URL", cfg.URL)
	}
	var roots *x509.CertPool
	if cfg.CAPEM != nil {
		roots = x509.NewCertPool()
		if !roots.AppendCertsFromPEM(cfg.CAPEM) {
			return nil, errors.New("the OpenBao CA bundle holds no PEM certificate")
		}
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}

	conf := api.NewConfig()
	if conf.Error != nil {
		return nil, fmt.Errorf("OpenBao client config: %w", conf.Error)
	}
	conf.DisableEnvironment = true
	conf.Address = strings.TrimSuffix(cfg.URL, "/")
	conf.AgentAddress = ""
	conf.HttpClient = newHTTPClient(roots, cfg.Dial)
	conf.Timeout = timeout
	conf.MaxRetries = 0
	conf.CheckRetry = neverRetry
	conf.Limiter = nil
	conf.SRVLookup = false
	// A redirect would be a call to another address than the one configured.
	conf.DisableRedirects = true

	c, err := api.NewClient(conf)
	if err != nil {
		return nil, fmt.Errorf("OpenBao client: %w", err)
	}
	c.ClearToken()
	headers := http.Header{}
	headers.Set(api.RequestHeaderName, "true")
	if cfg.Namespace != "" {
		headers.Set(api.NamespaceHeaderName, cfg.Namespace)
	}
	c.SetHeaders(headers)
	c.SetWrappingLookupFunc(func(string, string) string { return "" })
	c.SetMFACreds(nil)
	// Never Clone c: a clone is rebuilt through NewClient without
	// DisableEnvironment and would read BAO_TOKEN and BAO_NAMESPACE.
	return &Client{api: c, timeout: timeout}, nil
}

// newHTTPClient verifies the server against roots alone (nil: system
// trust) and dials with dial (nil: the host itself). The standard HTTPS_PROXY/NO_PROXY variables apply, as for the
// operator's Kubernetes client; loopback is never proxied.
func newHTTPClient(roots *x509.CertPool, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Client {
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               http.ProxyFromEnvironment,
			DialContext:         dial,
			TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout: 10 * time.Second,
			ForceAttemptHTTP2:   true,
			MaxIdleConns:        10,
			IdleConnTimeout:     90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// neverRetry makes every call a single attempt: the controller requeues.
func neverRetry(context.Context, *http.Response, error) (bool, error) { return false, nil }

// call sends one request with token ("" sends none) and body (nil sends
// none) and decodes a 2xx JSON answer into out; an empty answer leaves out
// as it is. login selects the login mapping of 400/403 (see classify).
func (c *Client) call(ctx context.Context, op string, login loginKind, token, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req := c.api.NewRequest(method, "/v1/"+path)
	req.ClientToken = token
	if body != nil {
		if err := req.SetJSONBody(body); err != nil {
			return &Error{Kind: Other, Op: op, Err: err}
		}
	}
	resp, err := c.api.RawRequestWithContext(ctx, req)
	if resp != nil && resp.Body != nil {
		defer resp.Body.Close() //nolint:errcheck
	}
	if resp == nil {
		if err == nil {
			err = errors.New("no response")
		}
		return &Error{Kind: Unreachable, Op: op, Err: err}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if err == nil {
			err = fmt.Errorf("unexpected HTTP %d", resp.StatusCode)
		}
		return &Error{Kind: classify(resp.StatusCode, login, serverMessages(err)), Status: resp.StatusCode, Op: op, Err: err}
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return &Error{Kind: Unreachable, Status: resp.StatusCode, Op: op, Err: err}
	}
	if out == nil || len(strings.TrimSpace(string(data))) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return &Error{Kind: Other, Status: resp.StatusCode, Op: op, Err: fmt.Errorf("decoding the answer: %w", err)}
	}
	return nil
}

// serverMessages are the {"errors": [...]} of an error answer.
func serverMessages(err error) []string {
	var respErr *api.ResponseError
	if errors.As(err, &respErr) {
		return respErr.Errors
	}
	return nil
}
