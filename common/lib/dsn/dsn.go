// Package dsn assembles the pymysql connection URL the services read from the
// derived <cr>-db-connection Secret.
package dsn

import (
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Parts of a DSN. Host includes the port.
type Parts struct {
	User, Password, Host, Database string
	TLS                            *serviceapi.DatabaseTLS
	// TLSDir is where the db-tls volume is mounted.
	TLSDir string
}

// Target is the DSN without the password: where the schema lives (server,
// schema, account, TLS). A change of it needs the schema migrated again (a
// new, empty server); a rotated password does not.
func Target(p Parts) string {
	p.Password = ""
	return Build(p)
}

// Build renders mysql+pymysql://user:pw@host/db?charset=utf8[&ssl_*] with the
// userinfo percent-encoded and the query keys sorted.
func Build(p Parts) string {
	q := map[string]string{"charset": "utf8"}
	if p.TLS.Enabled() {
		// Only the keys SQLAlchemy gathers into pymysql's ssl dict. pymysql's
		// own ssl_verify_cert/ssl_verify_identity arguments (the spec's
		// spelling) make it replace that dict, dropping the CA and the client
		// certificate; see docs/decisions/dsn-tls-keys.md. With a CA pymysql
		// verifies the chain; ssl_check_hostname decides the name check.
		q["ssl_cert"] = path.Join(p.TLSDir, "tls.crt")
		q["ssl_key"] = path.Join(p.TLSDir, "tls.key")
		switch p.TLS.Mode {
		case serviceapi.TLSVerifyCA:
			q["ssl_ca"] = path.Join(p.TLSDir, "ca.crt")
			q["ssl_check_hostname"] = "false"
		case serviceapi.TLSVerifyFull:
			q["ssl_ca"] = path.Join(p.TLSDir, "ca.crt")
			q["ssl_check_hostname"] = "true"
		}
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]string, 0, len(keys))
	for _, k := range keys {
		// Paths keep their slashes literal; pymysql reads them verbatim.
		pairs = append(pairs, url.QueryEscape(k)+"="+strings.ReplaceAll(url.QueryEscape(q[k]), "%2F", "/"))
	}
	userinfo := url.UserPassword(p.User, p.Password).String()
	return "mysql+pymysql://" + userinfo + "@" + p.Host + "/" + p.Database + "?" + strings.Join(pairs, "&")
}

// Host returns the server address: <clusterRef>.<namespace>.svc:<port> for a
// managed database, else <host>:<port>.
func Host(d serviceapi.DatabaseSpec, namespace string) string {
	port := strconv.Itoa(int(d.EffectivePort()))
	if d.ClusterRef != nil {
		return d.ClusterRef.Name + "." + namespace + ".svc:" + port
	}
	return d.Host + ":" + port
}

// User returns the database user: the CR name for managed Static credentials
// (the operator's User CR), else the Secret's username.
func User(d serviceapi.DatabaseSpec, crName, secretUsername string) string {
	if d.Managed() && !d.Dynamic() {
		return crName
	}
	return secretUsername
}
