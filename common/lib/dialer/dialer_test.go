package dialer

import (
	"context"
	"net"
	"testing"
)

func TestSetAndLookup(t *testing.T) {
	var tab Table
	if err := tab.Set("bao.ns.svc:8200=127.0.0.1:18200, other.svc:443=127.0.0.2:8443"); err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"bao.ns.svc:8200": "127.0.0.1:18200",
		"other.svc:443":   "127.0.0.2:8443",
		"bao.ns.svc:8201": "bao.ns.svc:8201",
	} {
		if got := tab.Lookup(in); got != want {
			t.Errorf("Lookup(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := tab.String(), "bao.ns.svc:8200=127.0.0.1:18200,other.svc:443=127.0.0.2:8443"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	tab.Map("other.svc:443", "")
	if got := tab.Lookup("other.svc:443"); got != "other.svc:443" {
		t.Errorf("removed mapping still answers %q", got)
	}
}

func TestSetRefusesMalformedEntries(t *testing.T) {
	for _, bad := range []string{"bao.ns.svc:8200", "bao.ns.svc=127.0.0.1:1", "bao:1=127.0.0.1"} {
		var tab Table
		if err := tab.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

// A mapped name reaches the listener at the mapped address.
func TestDialContextFollowsTheMapping(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	accepted := make(chan struct{})
	go func() {
		if c, err := ln.Accept(); err == nil {
			_ = c.Close()
			close(accepted)
		}
	}()
	var tab Table
	tab.Map("instance.ns.svc:8200", ln.Addr().String())
	c, err := tab.DialContext(context.Background(), "tcp", "instance.ns.svc:8200")
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	<-accepted
}
