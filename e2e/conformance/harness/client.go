package harness

import (
	"io"
	"net/http"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Client calls an API the test started, with a Keystone token ("" sends
// none); a failed call fails the test.
type Client struct {
	T     *testing.T
	URL   string // base URL, ending in /
	Token string
}

// Do sends one request and returns the answer with its body read.
func (c Client) Do(method, path string, body io.Reader, header map[string]string) (*http.Response, []byte) {
	c.T.Helper()
	req, err := http.NewRequestWithContext(c.T.Context(), method, c.URL+path, body)
	poll.Must(c.T, err)
	if c.Token != "" {
		req.Header.Set("X-Auth-Token", c.Token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	poll.Must(c.T, err)
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(resp.Body)
	poll.Must(c.T, err)
	return resp, out
}

// Expect fails the test unless the call answered want; it returns the body.
func (c Client) Expect(want int, method, path string, body io.Reader, header map[string]string) []byte {
	c.T.Helper()
	resp, out := c.Do(method, path, body, header)
	if resp.StatusCode != want {
		c.T.Fatalf("%s %s: %d, want %d: %s", method, path, resp.StatusCode, want, out)
	}
	return out
}
