package openbao

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestBrownfieldCalls(t *testing.T) {
	b := startBrownfield(t)
	ctx := context.Background()
	c := mustNew(t, Config{URL: b.srv.URL, CAPEM: b.srv.CAPEM})

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
	caps, err = s.CapabilitiesSelf(ctx, "elsewhere/data/probe")
	if err != nil {
		t.Fatal(err)
	}
	if missing := MissingCapabilities(caps, RequiredCapabilities...); len(missing) != len(RequiredCapabilities) {
		t.Fatalf("capabilities %v outside the policy: missing %v, want all five", caps, missing)
	}
	s.End(ctx)

	_, err = c.AppRoleLogin(ctx, "not-the-role-id", b.secretID)
	wantKind(t, err, Invalid, "AppRole login with a wrong role ID")
	if err := b.srv.DestroySecretID(ctx, "app", b.secretID); err != nil {
		t.Fatal(err)
	}
	// Vault 1.13 answers 500 "invalid secret id" (OpenBao: 400) and, after
	// five refusals in a row, locks the role ID out with 403: both Invalid.
	var statuses []int
	for len(statuses) < 10 {
		_, err = c.AppRoleLogin(ctx, b.roleID, b.secretID)
		statuses = append(statuses, wantKind(t, err, Invalid, "AppRole login with a destroyed secret ID"))
		if statuses[len(statuses)-1] == http.StatusForbidden {
			break
		}
	}
	if statuses[0] != http.StatusInternalServerError || statuses[len(statuses)-1] != http.StatusForbidden {
		t.Fatalf("statuses of repeated logins with a destroyed secret ID: %v, want 500 first and 403 once locked out", statuses)
	}
}

func TestUnreachableServer(t *testing.T) {
	b := startBrownfield(t)
	ctx := context.Background()

	for name, ca := range map[string][]byte{"another CA": otherCAPEM(t), "system trust": nil} {
		c := mustNew(t, Config{URL: b.srv.URL, CAPEM: ca})
		_, err := c.AppRoleLogin(ctx, b.roleID, b.secretID)
		status := wantKind(t, err, Unreachable, name)
		if status != 0 || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("%s: status %d, error %q should name the certificate", name, status, err)
		}
	}

	c := mustNew(t, Config{URL: b.srv.URL, CAPEM: b.srv.CAPEM})
	if _, err := c.AppRoleLogin(ctx, b.roleID, b.secretID); err != nil {
		t.Fatalf("before Stop: %v", err)
	}
	b.srv.Stop()
	_, err := c.AppRoleLogin(ctx, b.roleID, b.secretID)
	wantKind(t, err, Unreachable, "stopped server")
}

func TestNewRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"http URL":       {URL: "http://127.0.0.1:8200"},
		"no host":        {URL: "https://"},
		"not a URL":      {URL: "::"},
		"CA without PEM": {URL: "https://127.0.0.1:8200", CAPEM: []byte("not a certificate")},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
		}
	}
}

// TestSilentListenerTimesOut: a listener that accepts and never answers (not
// even the TLS handshake) fails the call once the configured timeout passes.
func TestSilentListenerTimesOut(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	accepted := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = l.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, conn := range held {
			_ = conn.Close()
		}
	})

	c := mustNew(t, Config{URL: "https://" + l.Addr().String(), CAPEM: otherCAPEM(t), Timeout: 300 * time.Millisecond})
	_, err = c.AppRoleLogin(context.Background(), "role", "secret")
	wantKind(t, err, Unreachable, "silent listener")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v is not the call's deadline", err)
	}
	select {
	case <-accepted:
	case <-time.After(10 * time.Second):
		t.Fatal("the listener accepted no connection: the call never reached it")
	}
}
