package openbao

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestServerAnswersOverTLSWithItsCAOnly(t *testing.T) {
	s := Start(t)
	ctx := context.Background()

	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") {
		t.Fatalf("URL %q is not https on loopback", s.URL)
	}
	resp, err := s.HTTPClient().Get(s.URL + "/v1/sys/health")
	if err != nil {
		t.Fatalf("client with the CA: %v", err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sys/health: HTTP %d, want 200 (initialised, unsealed, active)", resp.StatusCode)
	}
	if resp.TLS == nil {
		t.Fatal("the answer did not come over TLS")
	}

	// Another CA, and the system trust store, must both be refused.
	other, err := newServerTLS(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(other.caPEM)
	for name, client := range map[string]*http.Client{
		"other CA":     newHTTPClient(pool),
		"system trust": {Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}},
	} {
		resp, err := client.Get(s.URL + "/v1/sys/health")
		if err == nil {
			_ = resp.Body.Close()
			t.Fatalf("%s: the server's certificate was accepted", name)
		}
		if !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("%s: error %v does not name the certificate", name, err)
		}
	}

	// The root token works and a wrong one is refused.
	if err := s.Call(ctx, http.MethodGet, "sys/mounts", nil, nil); err != nil {
		t.Fatalf("root token: %v", err)
	}
	var apiErr *APIError
	if err := s.CallAs(ctx, "not-a-token", http.MethodGet, "sys/mounts", nil, nil); !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden {
		t.Fatalf("wrong token: got %v, want HTTP 403", err)
	}

	s.Stop()
	if err := s.Call(ctx, http.MethodGet, "sys/health", nil, nil); err == nil || errors.As(err, &apiErr) {
		t.Fatalf("after Stop: got %v, want a connection error", err)
	}
}

func TestBrownfieldHelpers(t *testing.T) {
	s := Start(t)
	ctx := context.Background()

	if err := s.EnableKV2(ctx, "secrets"); err != nil {
		t.Fatal(err)
	}
	if err := s.WritePolicy(ctx, "app", `path "secrets/data/*" { capabilities = ["create", "read"] }`); err != nil {
		t.Fatal(err)
	}
	roleID, secretID, err := s.CreateAppRole(ctx, "app", AppRoleOptions{Policies: []string{"app"}, SecretIDTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	token := appRoleLogin(t, s, roleID, secretID)
	caps := capabilities(t, s, token, "secrets/data/probe")
	if strings.Join(caps, ",") != "create,read" {
		t.Fatalf("capabilities of the AppRole token on secrets/data/probe: %v", caps)
	}

	// The AppRole carries the TTL it was given.
	var role struct {
		Data struct {
			SecretIDTTL int `json:"secret_id_ttl"`
		} `json:"data"`
	}
	if err := s.Call(ctx, http.MethodGet, "auth/approle/role/app", nil, &role); err != nil {
		t.Fatal(err)
	}
	if role.Data.SecretIDTTL != 3600 {
		t.Fatalf("secret_id_ttl = %d, want 3600", role.Data.SecretIDTTL)
	}

	// A destroyed secret ID no longer logs in; a fresh one does. Vault 1.13
	// answers the refusal with 500 "invalid secret id" (OpenBao: 400).
	if err := s.DestroySecretID(ctx, "app", secretID); err != nil {
		t.Fatal(err)
	}
	err = s.CallAs(ctx, "", http.MethodPut, "auth/approle/login", map[string]string{"role_id": roleID, "secret_id": secretID}, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusInternalServerError || strings.Join(apiErr.Errors, ";") != "invalid secret id" {
		t.Fatalf("login with a destroyed secret ID: got %v, want Vault 1.13's HTTP 500 invalid secret id", err)
	}
	fresh, err := s.MintSecretID(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	appRoleLogin(t, s, roleID, fresh)

	// Removing the role and the mount is visible to the calls the operator makes.
	if err := s.DeleteAppRole(ctx, "app"); err != nil {
		t.Fatal(err)
	}
	if err := s.Call(ctx, http.MethodGet, "auth/approle/role/app/role-id", nil, nil); !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound {
		t.Fatalf("role-id of a deleted role: got %v, want HTTP 404", err)
	}
	if err := s.Call(ctx, http.MethodGet, "sys/mounts/secrets", nil, nil); err != nil {
		t.Fatalf("reading the mount before removal: %v", err)
	}
	if err := s.DisableMount(ctx, "secrets"); err != nil {
		t.Fatal(err)
	}
	if err := s.Call(ctx, http.MethodGet, "sys/mounts/secrets", nil, nil); err == nil {
		t.Fatal("reading a removed mount succeeded")
	}
}

// TestUserLockout shows the server policy a stale pair runs into: five
// refused logins in a row lock the role ID out, valid pairs included, until
// DisableUserLockout lifts it.
func TestUserLockout(t *testing.T) {
	s := Start(t)
	ctx := context.Background()
	roleID, stale, err := s.CreateAppRole(ctx, "app", AppRoleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	valid, err := s.MintSecretID(ctx, "app")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DestroySecretID(ctx, "app", stale); err != nil {
		t.Fatal(err)
	}
	login := func(secretID string) error {
		return s.CallAs(ctx, "", http.MethodPut, "auth/approle/login", map[string]string{"role_id": roleID, "secret_id": secretID}, nil)
	}
	var apiErr *APIError
	for i := 1; i <= 5; i++ {
		if err := login(stale); !errors.As(err, &apiErr) || apiErr.Status != http.StatusInternalServerError {
			t.Fatalf("stale login %d: got %v, want HTTP 500", i, err)
		}
	}
	if err := login(valid); !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden {
		t.Fatalf("valid pair after five refusals: got %v, want HTTP 403 (locked out)", err)
	}
	if err := s.DisableUserLockout(ctx, "approle"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 6; i++ {
		if err := login(stale); !errors.As(err, &apiErr) || apiErr.Status != http.StatusInternalServerError {
			t.Fatalf("stale login %d without lockout: got %v, want HTTP 500", i, err)
		}
	}
	if err := login(valid); err != nil {
		t.Fatalf("valid pair with lockout disabled: %v", err)
	}
}

func appRoleLogin(t *testing.T, s *Server, roleID, secretID string) string {
	t.Helper()
	var out struct {
		Auth struct {
			ClientToken string `json:"client_token"`
		} `json:"auth"`
	}
	in := map[string]string{"role_id": roleID, "secret_id": secretID}
	if err := s.CallAs(context.Background(), "", http.MethodPut, "auth/approle/login", in, &out); err != nil {
		t.Fatalf("AppRole login: %v", err)
	}
	if out.Auth.ClientToken == "" {
		t.Fatal("AppRole login returned no token")
	}
	return out.Auth.ClientToken
}

func capabilities(t *testing.T, s *Server, token, path string) []string {
	t.Helper()
	var out struct {
		Capabilities []string `json:"capabilities"`
	}
	if err := s.CallAs(context.Background(), token, http.MethodPost, "sys/capabilities-self", map[string]string{"path": path}, &out); err != nil {
		t.Fatalf("capabilities-self on %s: %v", path, err)
	}
	sort.Strings(out.Capabilities)
	return out.Capabilities
}

// TestResumeKeepsTheData: a halted server refuses connections; resumed, it
// answers on the same URL with its CA, unsealed, and the mount, the secret
// written before and the AppRole pair are still there.
func TestResumeKeepsTheData(t *testing.T) {
	s := Start(t)
	ctx := context.Background()
	if err := s.EnableKV2(ctx, "secrets"); err != nil {
		t.Fatal(err)
	}
	if err := s.Call(ctx, http.MethodPost, "secrets/data/kept", map[string]any{"data": map[string]string{"v": "1"}}, nil); err != nil {
		t.Fatal(err)
	}
	roleID, secretID, err := s.CreateAppRole(ctx, "app", AppRoleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Resume(ctx); err == nil {
		t.Fatal("Resume of a running server succeeded")
	}

	s.Halt()
	var apiErr *APIError
	if err := s.Call(ctx, http.MethodGet, "sys/health", nil, nil); err == nil || errors.As(err, &apiErr) {
		t.Fatalf("after Halt: got %v, want a connection error", err)
	}
	if err := s.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Data struct {
			Data map[string]string `json:"data"`
		} `json:"data"`
	}
	if err := s.Call(ctx, http.MethodGet, "secrets/data/kept", nil, &got); err != nil {
		t.Fatalf("reading the secret written before the halt: %v", err)
	}
	if got.Data.Data["v"] != "1" {
		t.Fatalf("secret after Resume: %v, want v=1", got.Data.Data)
	}
	appRoleLogin(t, s, roleID, secretID)

	s.Stop()
	if err := s.Resume(ctx); err == nil {
		t.Fatal("Resume of a stopped server succeeded")
	}
}
