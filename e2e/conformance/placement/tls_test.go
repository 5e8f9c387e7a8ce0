package placement_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestDatabaseTLS: with database.tls verify-full, the DSN's ssl_* options
// and the mounted db-tls files carry db-sync and the API to a MariaDB that
// serves TLS and whose account requires a client certificate (REQUIRE
// X509): a connection without the mounted certificate is refused.
func TestDatabaseTLS(t *testing.T) {
	pki := newPKI(t)
	server, err := localsvc.StartMariaDBWith(localsvc.MariaDBOptions{TLS: &localsvc.TLSFiles{CA: pki.file("ca.crt"), Cert: pki.file("server.crt"), Key: pki.file("server.key")}})
	poll.Must(t, err)
	t.Cleanup(func() { _ = server.Stop() })

	const name = "db-tls"
	ns := "cf-" + name
	poll.Must(t, env.K8s.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	for sec, data := range map[string]map[string][]byte{
		"db-ca":     {"ca.crt": pki.pem["ca.crt"]},
		"db-client": {"tls.crt": pki.pem["client.crt"], "tls.key": pki.pem["client.key"]},
	} {
		poll.Must(t, env.K8s.Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: sec}, Data: data}))
	}
	s := newSiteOn(t, name, "2025.2", server, func(p *placementv1.Placement) {
		p.Spec.Database.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSVerifyFull,
			CABundleSecretRef: &serviceapi.SecretKeyRef{Name: "db-ca"}, ClientCertSecretRef: &serviceapi.SecretKeyRef{Name: "db-client"}}
	})
	_, err = server.Query(fmt.Sprintf("ALTER USER '%s'@'127.0.0.1' REQUIRE X509", s.DBUser))
	poll.Must(t, err)
	if _, err := server.QueryAs(s.DBUser, s.DBPass, s.Schema, "SELECT 1"); err == nil {
		t.Fatal("the account accepts a connection without a client certificate; the test proves nothing")
	}

	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	createProvider(t, a, token, "rp-over-tls")
	if status, body := call(t, http.MethodGet, a.URL+"resource_providers", token, nil); status != http.StatusOK {
		t.Fatalf("GET /resource_providers over a TLS database = %d %s", status, body)
	}
}

// pki is a CA with a server certificate for 127.0.0.1 and a client
// certificate, as PEM bytes and files.
type pki struct {
	dir string
	pem map[string][]byte
}

func (p *pki) file(name string) string { return filepath.Join(p.dir, name) }

func newPKI(t *testing.T) *pki {
	t.Helper()
	p := &pki{dir: t.TempDir(), pem: map[string][]byte{}}
	caKey, caCert := issue(t, nil, nil, &x509.Certificate{Subject: pkix.Name{CommonName: "conformance-ca"}, IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true})
	p.put("ca", caKey, caCert)
	srvKey, srvCert := issue(t, caKey, caCert, &x509.Certificate{Subject: pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature})
	p.put("server", srvKey, srvCert)
	cliKey, cliCert := issue(t, caKey, caCert, &x509.Certificate{Subject: pkix.Name{CommonName: "placement"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature})
	p.put("client", cliKey, cliCert)
	for name, b := range p.pem {
		poll.Must(t, os.WriteFile(p.file(name), b, 0o600))
	}
	return p
}

func (p *pki) put(name string, key *ecdsa.PrivateKey, cert *x509.Certificate) {
	der, _ := x509.MarshalECPrivateKey(key)
	p.pem[name+".key"] = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	p.pem[name+".crt"] = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
}

// issue signs tmpl with the CA (self-signed when ca is nil).
func issue(t *testing.T, caKey *ecdsa.PrivateKey, ca, tmpl *x509.Certificate) (*ecdsa.PrivateKey, *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	poll.Must(t, err)
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	poll.Must(t, err)
	tmpl.SerialNumber = serial
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	parent, signer := tmpl, key
	if ca != nil {
		parent, signer = ca, caKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	poll.Must(t, err)
	cert, err := x509.ParseCertificate(der)
	poll.Must(t, err)
	return key, cert
}
