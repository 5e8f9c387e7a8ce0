package suite

import (
	"cmp"
	"context"
	"regexp"
	"strings"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Site is one CR's inputs in their own namespace, named after the test:
// the namespace, a managed MariaDB (the MariaDB CR "mariadb"; its Database,
// User and Grant become a real schema and account on the local server) and
// the credential Secrets <service>-db and <service>-keystone, written by
// the real ESO from the fake store. The account of a managed CR is the
// CR's name.
type Site struct {
	T   *testing.T
	Ctx context.Context
	// C holds the inputs and receives the children: the management
	// cluster, or a target cluster. The CR is always on the management one.
	C      client.Client
	NS     string
	Name   string
	Schema string
	DBUser string
	// Service names the credential Secrets and the image.
	Service string
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// NewSite creates the inputs of a CR of service on c (prefix starts the
// CR's name and, with "_", the schema's); mgmt receives the namespace too
// when c is a target cluster.
func NewSite(t *testing.T, mgmt, c client.Client, service, prefix string) *Site {
	t.Helper()
	slug := strings.Trim(nonWord.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(slug) > 40 {
		slug = slug[len(slug)-40:]
	}
	slug = strings.Trim(slug, "-")
	// One MariaDB server plays every namespace's MariaDB, and a managed
	// CR's account is named after the CR: the CR name is unique.
	s := &Site{T: t, Ctx: t.Context(), C: c, NS: "e2e-" + slug, Name: prefix + "-" + slug, Service: service}
	s.Schema = prefix + "_" + strings.ReplaceAll(slug, "-", "_")
	s.DBUser = s.Name
	// The namespace may exist: the suite made it for the chart (Options.Namespaces).
	poll.Must(t, client.IgnoreAlreadyExists(c.Create(s.Ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.NS}})))
	m := &mariadbv1alpha1.MariaDB{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: "mariadb"}}
	m.Spec.Storage = mariadbv1alpha1.Storage{Size: ptr.To(resource.MustParse("1Gi"))}
	poll.Must(t, c.Create(s.Ctx, m))
	db, ks := service+"-db", service+"-keystone"
	SetCredential(t, c, CredentialKey(s.NS, db), map[string]string{"username": s.DBUser, "password": "db-pw-1"})
	SetCredential(t, c, CredentialKey(s.NS, ks), map[string]string{"password": "ks-pw-1"})
	ExternalSecret(t, c, s.NS, db, CredentialKey(s.NS, db))
	ExternalSecret(t, c, s.NS, ks, CredentialKey(s.NS, ks))
	if c != mgmt {
		poll.Must(t, mgmt.Create(s.Ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.NS}}))
	}
	return s
}

// Spec is the shared spec of the site's CR on release as a user writes it
// (the webhook fills the rest): the image repository (repo, or
// registry.example.org/openstack/<service>), the managed MariaDB at port,
// the credential Secrets, a memcached and a Keystone by their Service names,
// and one replica: every pod is a real API process on this machine, and no
// scenario needs more than one to start with (the ones about scaling add
// replicas; the default of three tripled the machine's load for nothing).
func (s *Site) Spec(release, repo string, port int) serviceapi.ServiceSpec {
	return serviceapi.ServiceSpec{
		Deployment:       &serviceapi.DeploymentSpec{Replicas: 1},
		OpenStackRelease: release,
		Image:            serviceapi.ImageSpec{Repository: cmp.Or(repo, "registry.example.org/openstack/"+s.Service), Tag: release},
		Database: serviceapi.DatabaseSpec{
			ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"},
			Port:       int32(port),
			Database:   s.Schema,
			SecretRef:  serviceapi.SecretKeyRef{Name: s.Service + "-db"},
		},
		Cache:            serviceapi.CacheSpec{Servers: []string{"memcached." + s.NS + ".svc:11211"}},
		KeystoneEndpoint: "http://keystone.openstack.svc:5000/v3",
		ServiceUser:      serviceapi.ServiceUserSpec{SecretRef: serviceapi.SecretKeyRef{Name: s.Service + "-keystone", Key: "password"}},
	}
}

// OneWorker is the uwsgi tuning of every site's API: one worker, where the
// operators default to two. Every pod is a real API process here, and with
// --lazy-apps each worker loads the application itself, so a second worker
// doubles the CPU of every pod's start; no e2e scenario needs it (the
// conformance suites run the operators' default command, two workers).
func OneWorker() *serviceapi.UWSGISpec { return &serviceapi.UWSGISpec{Processes: 1} }

// CheckInstalled checks what a fresh install of the site's CR leaves: the
// API condition api names the local API the pod runner started (the CR's
// probe-URL annotation), and the <name>-db-sync Job succeeded.
func (s *Site) CheckInstalled(cr client.Object, api *metav1.Condition) {
	s.T.Helper()
	if url := cr.GetAnnotations()[probe.URLAnnotation]; url == "" || !strings.Contains(api.Message, url) {
		s.T.Errorf("%s %q does not name the local API %q", api.Type, api.Message, url)
	}
	var job batchv1.Job
	poll.Must(s.T, s.C.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name + "-db-sync"}, &job))
	if job.Status.Succeeded != 1 {
		s.T.Errorf("db-sync Job status %+v", job.Status)
	}
}
