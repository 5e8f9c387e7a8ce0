package dsn

import (
	"net/url"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func TestBuild(t *testing.T) {
	const tlsDir = "/etc/placement/db-tls"
	// Sorted keys: ssl_ca < ssl_cert < ssl_check_hostname < ssl_key.
	const (
		ca   = "&ssl_ca=/etc/placement/db-tls/ca.crt"
		cert = "&ssl_cert=/etc/placement/db-tls/tls.crt"
		key  = "&ssl_key=/etc/placement/db-tls/tls.key"
	)
	base := Parts{User: "placement", Password: "secret", Host: "mariadb.openstack.svc:3306", Database: "placement", TLSDir: tlsDir}
	with := func(mut func(*Parts)) Parts { p := base; mut(&p); return p }
	tests := []struct {
		name  string
		parts Parts
		want  string
	}{
		{
			name:  "plain",
			parts: base,
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8",
		},
		{
			name:  "reserved characters in user and password are percent-encoded",
			parts: with(func(p *Parts) { p.User = "u@s:e/r"; p.Password = "p@ss:w/rd?#%" }),
			want:  "mysql+pymysql://u%40s%3Ae%2Fr:p%40ss%3Aw%2Frd%3F%23%25@mariadb.openstack.svc:3306/placement?charset=utf8",
		},
		{
			name:  "tls nil",
			parts: with(func(p *Parts) { p.TLS = nil }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8",
		},
		{
			name:  "tls empty mode",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8",
		},
		{
			name:  "tls disabled",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSDisabled} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8",
		},
		{
			name:  "tls prefer",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSPrefer} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8" + cert + key,
		},
		{
			name:  "tls require",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSRequire} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8" + cert + key,
		},
		{
			name:  "tls verify-ca",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSVerifyCA} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8" + ca + cert + "&ssl_check_hostname=false" + key,
		},
		{
			name:  "tls verify-full",
			parts: with(func(p *Parts) { p.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSVerifyFull} }),
			want:  "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8" + ca + cert + "&ssl_check_hostname=true" + key,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Build(tt.parts)
			if got != tt.want {
				t.Fatalf("Build() =\n %s\nwant\n %s", got, tt.want)
			}
			u, err := url.Parse(got)
			if err != nil {
				t.Fatalf("DSN does not parse: %v", err)
			}
			pw, _ := u.User.Password()
			if u.User.Username() != tt.parts.User || pw != tt.parts.Password {
				t.Errorf("userinfo round trip = %q:%q, want %q:%q", u.User.Username(), pw, tt.parts.User, tt.parts.Password)
			}
			if u.Host != tt.parts.Host || u.Path != "/"+tt.parts.Database {
				t.Errorf("host/path = %q %q", u.Host, u.Path)
			}
		})
	}
}

func TestHost(t *testing.T) {
	tests := []struct {
		name string
		db   serviceapi.DatabaseSpec
		want string
	}{
		{name: "managed default port", db: serviceapi.DatabaseSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"}}, want: "mariadb.openstack.svc:3306"},
		{name: "managed explicit port", db: serviceapi.DatabaseSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"}, Port: 3307}, want: "mariadb.openstack.svc:3307"},
		{name: "brownfield default port", db: serviceapi.DatabaseSpec{Host: "db.example.org"}, want: "db.example.org:3306"},
		{name: "brownfield explicit port", db: serviceapi.DatabaseSpec{Host: "10.0.0.5", Port: 13306}, want: "10.0.0.5:13306"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Host(tt.db, "openstack"); got != tt.want {
				t.Errorf("Host() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUser(t *testing.T) {
	managed := &serviceapi.LocalObjectRef{Name: "mariadb"}
	tests := []struct {
		name string
		db   serviceapi.DatabaseSpec
		want string
	}{
		{name: "managed default mode is Static", db: serviceapi.DatabaseSpec{ClusterRef: managed}, want: "my-placement"},
		{name: "managed Static", db: serviceapi.DatabaseSpec{ClusterRef: managed, CredentialsMode: serviceapi.CredentialsStatic}, want: "my-placement"},
		{name: "managed Dynamic", db: serviceapi.DatabaseSpec{ClusterRef: managed, CredentialsMode: serviceapi.CredentialsDynamic}, want: "v-issued-user"},
		{name: "brownfield", db: serviceapi.DatabaseSpec{Host: "db.example.org"}, want: "v-issued-user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := User(tt.db, "my-placement", "v-issued-user"); got != tt.want {
				t.Errorf("User() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTargetLeavesThePasswordOut(t *testing.T) {
	p := Parts{User: "placement", Password: "secret", Host: "mariadb.openstack.svc:3306", Database: "placement"}
	rotated := p
	rotated.Password = "rotated"
	moved := p
	moved.Host = "mariadb-2.openstack.svc:3306"
	if Target(p) != Target(rotated) {
		t.Errorf("Target changes with the password: %q vs %q", Target(p), Target(rotated))
	}
	if Target(p) == Target(moved) {
		t.Errorf("Target ignores the host: %q", Target(p))
	}
	if strings.Contains(Target(p), "secret") {
		t.Errorf("Target %q holds the password", Target(p))
	}
}
