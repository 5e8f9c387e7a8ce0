package openbao

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	openbaotest "github.com/c5c3/openstack-operators/testsupport/openbao"
)

// wantCalls are the requests of one brownfield pass: login, capability
// probe, revoke.
var wantCalls = []struct{ method, path string }{
	{http.MethodPut, "/v1/auth/approle/login"},
	{http.MethodPost, "/v1/sys/capabilities-self"},
	{http.MethodPut, "/v1/auth/token/revoke-self"},
}

// brownfieldPass runs one pass's calls and fails the test on any error.
func brownfieldPass(t *testing.T, c *Client, b brownfield) {
	t.Helper()
	ctx := context.Background()
	s, err := c.AppRoleLogin(ctx, b.roleID, b.secretID)
	if err != nil {
		t.Fatal(err)
	}
	caps, err := s.CapabilitiesSelf(ctx, "kv/data/probe")
	if err != nil {
		t.Fatal(err)
	}
	if missing := MissingCapabilities(caps, RequiredCapabilities...); missing != nil {
		t.Fatalf("capabilities %v miss %v", caps, missing)
	}
	s.End(ctx)
}

// checkCalls compares what the proxy saw with wantCalls: methods, paths, the
// namespace header and the token header (none on the login).
func checkCalls(t *testing.T, got []openbaotest.Request, namespace, rootToken string) {
	t.Helper()
	if len(got) != len(wantCalls) {
		t.Fatalf("the proxy saw %d requests, want %d: %+v", len(got), len(wantCalls), got)
	}
	var wantNS []string
	if namespace != "" {
		wantNS = []string{namespace}
	}
	for i, r := range got {
		if r.Method != wantCalls[i].method || r.Path != wantCalls[i].path {
			t.Errorf("request %d: %s %s, want %s %s", i, r.Method, r.Path, wantCalls[i].method, wantCalls[i].path)
		}
		if ns := r.Header.Values("X-Vault-Namespace"); !reflect.DeepEqual(ns, wantNS) {
			t.Errorf("request %d (%s): X-Vault-Namespace %q, want %q", i, r.Path, ns, wantNS)
		}
		token := r.Header.Get("X-Vault-Token")
		if (i == 0) != (token == "") || (rootToken != "" && token == rootToken) {
			t.Errorf("request %d (%s): unexpected X-Vault-Token (set %t)", i, r.Path, token != "")
		}
		if w := r.Header.Get("X-Vault-Wrap-TTL"); w != "" {
			t.Errorf("request %d (%s): asks for response wrapping %q", i, r.Path, w)
		}
	}
}

func TestNamespaceHeaderOnlyWhenConfigured_ProxyOnlyRecords(t *testing.T) {
	b := startBrownfield(t)
	p := b.srv.Record(t)
	for _, namespace := range []string{"", "team-a/barbican"} {
		c := mustNew(t, Config{URL: p.URL, CAPEM: b.srv.CAPEM, Namespace: namespace})
		brownfieldPass(t, c, b)
		checkCalls(t, p.Take(), namespace, "")
	}
}

func TestPoisonedEnvironmentHasNoEffect_ProxyOnlyRecords(t *testing.T) {
	b := startBrownfield(t)
	p := b.srv.Record(t)
	dir := t.TempDir()
	proxyCA := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(proxyCA, b.srv.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	closed := "https://127.0.0.1:1"
	poison := map[string]string{
		"ADDR":              closed,
		"AGENT_ADDR":        closed,
		"TOKEN":             b.srv.RootToken,
		"NAMESPACE":         "poisoned",
		"CACERT":            proxyCA,
		"CACERT_BYTES":      string(b.srv.CAPEM),
		"CAPATH":            dir,
		"CLIENT_CERT":       filepath.Join(dir, "missing.crt"),
		"CLIENT_KEY":        filepath.Join(dir, "missing.key"),
		"CLIENT_TIMEOUT":    "1ns",
		"SKIP_VERIFY":       "true",
		"TLS_SERVER_NAME":   "wrong.invalid",
		"WRAP_TTL":          "5m",
		"MAX_RETRIES":       "5",
		"RATE_LIMIT":        "0.001:1",
		"HTTP_PROXY":        "http://127.0.0.1:1",
		"PROXY_ADDR":        "http://127.0.0.1:1",
		"SRV_LOOKUP":        "true",
		"DISABLE_REDIRECTS": "false",
		"MFA":               "poisoned",
	}
	for name, value := range poison {
		t.Setenv("BAO_"+name, value)
		t.Setenv("VAULT_"+name, value)
	}

	t.Run("address, token, namespace, timeout, wrapping and rate limit come from Config", func(t *testing.T) {
		c := mustNew(t, Config{URL: p.URL, CAPEM: b.srv.CAPEM})
		brownfieldPass(t, c, b)
		brownfieldPass(t, c, b) // a second pass: the poisoned rate limit would block it
		got := p.Take()
		if len(got) != 2*len(wantCalls) {
			t.Fatalf("the proxy saw %d requests for two passes, want %d: %+v", len(got), 2*len(wantCalls), got)
		}
		checkCalls(t, got[:3], "", b.srv.RootToken)
		checkCalls(t, got[3:], "", b.srv.RootToken)
	})
	t.Run("no CA from the environment", func(t *testing.T) {
		c := mustNew(t, Config{URL: p.URL})
		_, err := c.AppRoleLogin(context.Background(), b.roleID, b.secretID)
		wantKind(t, err, Unreachable, "system trust with BAO_CACERT set")
	})
	t.Run("no skip-verify from the environment", func(t *testing.T) {
		c := mustNew(t, Config{URL: p.URL, CAPEM: otherCAPEM(t)})
		_, err := c.AppRoleLogin(context.Background(), b.roleID, b.secretID)
		wantKind(t, err, Unreachable, "wrong CA with BAO_SKIP_VERIFY set")
	})
	t.Run("no retries from the environment", func(t *testing.T) {
		p.Take()
		b.srv.Stop() // the proxy now answers 502, a status retryablehttp retries
		c := mustNew(t, Config{URL: p.URL, CAPEM: b.srv.CAPEM})
		_, err := c.AppRoleLogin(context.Background(), b.roleID, b.secretID)
		if status := wantKind(t, err, Unreachable, "backend stopped behind the proxy"); status != http.StatusBadGateway {
			t.Fatalf("status %d, want 502 from the proxy", status)
		}
		if got := p.Take(); len(got) != 1 {
			t.Fatalf("the proxy saw %d requests for one call, want 1 (no retries)", len(got))
		}
	})
}
