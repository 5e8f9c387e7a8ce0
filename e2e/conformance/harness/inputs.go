package harness

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Inputs are what a service CR of one test reads: its namespace, a schema
// and user of its own on a MariaDB (a brownfield database: the CR names
// host and port, so the DSN the operator writes points at the loopback
// server unchanged) and the Secrets <service>-db and <service>-keystone.
type Inputs struct {
	Service   string // e.g. "placement"
	Namespace string
	Schema    string
	DBUser    string
	DBPass    string
	// Server holds the schema.
	Server *localsvc.MariaDB
}

// NewInputs names the inputs of test name (prefix abbreviates the service
// in schema and user names) on server.
func NewInputs(service, prefix, name string, server *localsvc.MariaDB) Inputs {
	id := prefix + "_" + strings.ReplaceAll(name, "-", "_")
	return Inputs{Service: service, Namespace: "cf-" + name, Schema: id, DBUser: id, DBPass: "db-pw-" + name, Server: server}
}

// Provision creates the inputs (the namespace may exist already: a test
// that puts more inputs into it first); the schema is dropped when the
// test ends. It returns the CR's shared spec on release.
func (e *Env) Provision(t *testing.T, in Inputs, release string) serviceapi.ServiceSpec {
	t.Helper()
	ctx := t.Context()
	poll.Must(t, client.IgnoreAlreadyExists(e.K8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: in.Namespace}})))
	poll.Must(t, in.Server.CreateSchema(in.Schema, in.DBUser, in.DBPass))
	t.Cleanup(func() { _ = in.Server.DropSchema(in.Schema, in.DBUser) })
	for _, sec := range []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: in.Namespace, Name: in.Service + "-db"}, StringData: map[string]string{"username": in.DBUser, "password": in.DBPass}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: in.Namespace, Name: in.Service + "-keystone"}, StringData: map[string]string{"password": e.servicePassword}},
	} {
		poll.Must(t, e.K8s.Create(ctx, sec))
	}
	return serviceapi.ServiceSpec{
		OpenStackRelease: release,
		Image:            serviceapi.ImageSpec{Repository: "registry.example.org/openstack/" + in.Service, Tag: release},
		Database: serviceapi.DatabaseSpec{
			Host: "127.0.0.1", Port: int32(in.Server.Port), Database: in.Schema,
			SecretRef: serviceapi.SecretKeyRef{Name: in.Service + "-db"},
		},
		Cache:            serviceapi.CacheSpec{Servers: []string{e.Cache.Addr()}},
		KeystoneEndpoint: e.Keystone.URL,
		ServiceUser: serviceapi.ServiceUserSpec{Username: e.serviceUser, ProjectName: ServiceProject,
			SecretRef: serviceapi.SecretKeyRef{Name: in.Service + "-keystone", Key: "password"}},
	}
}
