package openbao

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"testing"
	"time"

	openbaotest "github.com/c5c3/openstack-operators/testsupport/openbao"
)

// brownfield is a server holding a KV v2 mount "kv" and an AppRole "app"
// with Barbican's five capabilities on it.
type brownfield struct {
	srv              *openbaotest.Server
	roleID, secretID string
}

const brownfieldPolicy = `path "kv/data/*" { capabilities = ["create", "read", "update", "delete", "list"] }`

func startBrownfield(t *testing.T) brownfield {
	t.Helper()
	srv := openbaotest.Start(t)
	ctx := context.Background()
	if err := srv.EnableKV2(ctx, "kv"); err != nil {
		t.Fatal(err)
	}
	if err := srv.WritePolicy(ctx, "app", brownfieldPolicy); err != nil {
		t.Fatal(err)
	}
	roleID, secretID, err := srv.CreateAppRole(ctx, "app", openbaotest.AppRoleOptions{Policies: []string{"app"}, SecretIDTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return brownfield{srv: srv, roleID: roleID, secretID: secretID}
}

func mustNew(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// wantKind checks err's kind and returns its HTTP status.
func wantKind(t *testing.T, err error, want Kind, what string) int {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want kind %s", what, want)
	}
	if got := KindOf(err); got != want {
		t.Fatalf("%s: kind %s, want %s (error: %v)", what, got, want, err)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: %T is not *Error", what, err)
	}
	return e.Status
}

// otherCAPEM is a CA that signed nothing the server presents.
func otherCAPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "unrelated CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
