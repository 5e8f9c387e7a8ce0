package bench

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// TestOpenBaoStandIn drives the stand-in as the Barbican operator's store
// check does, trusting only the CA the stores are given.
func TestOpenBaoStandIn(t *testing.T) {
	b := startOpenBaoStandIn()
	defer b.srv.Close()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(b.caPEM) {
		t.Fatal("caPEM holds no certificate")
	}
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	call := func(method, path, token string, body any, out any) int {
		t.Helper()
		data, _ := json.Marshal(body)
		req, err := http.NewRequest(method, b.URL()+"/v1/"+path, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set(baoTokenHeader, token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close() //nolint:errcheck
		if out != nil && resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode
	}

	if got := call(http.MethodPut, "auth/approle/login", "", map[string]string{"role_id": b.roleID, "secret_id": "wrong"}, nil); got != http.StatusBadRequest {
		t.Errorf("login with a wrong secret ID: HTTP %d, want 400", got)
	}
	var login struct {
		Auth struct {
			ClientToken string `json:"client_token"`
		} `json:"auth"`
	}
	if got := call(http.MethodPut, "auth/approle/login", "", map[string]string{"role_id": b.roleID, "secret_id": b.secretID}, &login); got != http.StatusOK || login.Auth.ClientToken == "" {
		t.Fatalf("login with the pair: HTTP %d, token %q", got, login.Auth.ClientToken)
	}
	token := login.Auth.ClientToken
	var caps struct {
		Capabilities []string `json:"capabilities"`
	}
	if got := call(http.MethodPost, "sys/capabilities-self", token, map[string]string{"path": "barbican/data/probe"}, &caps); got != http.StatusOK {
		t.Fatalf("capabilities-self: HTTP %d", got)
	}
	for _, want := range []string{"create", "read", "update", "delete", "list"} {
		if !slices.Contains(caps.Capabilities, want) {
			t.Errorf("capabilities %v lack %s", caps.Capabilities, want)
		}
	}
	if got := call(http.MethodPost, "sys/capabilities-self", "s.unknown", map[string]string{"path": "x"}, nil); got != http.StatusForbidden {
		t.Errorf("capabilities-self with an unknown token: HTTP %d, want 403", got)
	}
	if got := call(http.MethodPut, "auth/token/revoke-self", token, nil, nil); got != http.StatusNoContent {
		t.Errorf("revoke-self: HTTP %d, want 204", got)
	}
	if got := call(http.MethodPost, "sys/capabilities-self", token, map[string]string{"path": "x"}, nil); got != http.StatusForbidden {
		t.Errorf("capabilities-self after revoke: HTTP %d, want 403", got)
	}
	if n, live := b.logins.Load(), b.liveTokens(); n != 1 || live != 0 {
		t.Errorf("logins %d, live tokens %d; want 1, 0", n, live)
	}
	if got := call(http.MethodGet, "sys/mounts/barbican", token, nil, nil); got != http.StatusNotFound {
		t.Errorf("a call the stand-in does not serve: HTTP %d, want 404", got)
	}
}
