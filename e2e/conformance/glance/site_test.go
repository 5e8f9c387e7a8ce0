package glance_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glance "github.com/c5c3/openstack-operators/glance-operator"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// site is one Glance CR with its own namespace, schema and database user
// (harness.Inputs), and two GlanceBackends on their own buckets of the
// shared S3 server: "fast" (the default store) and "archive".
type site struct {
	harness.Inputs
	t    *testing.T
	ns   string
	name string
	// buckets by backend name.
	buckets map[string]string
}

// Backend names of every site.
const (
	fast    = "fast"
	archive = "archive"
)

// newSite provisions the inputs and creates the backends and the CR: the
// operator's minimal Glance on release, changed by mutate, with the
// webhook's defaults.
func newSite(t *testing.T, name, release string, mutate func(*glancev1.Glance)) *site {
	t.Helper()
	ctx := t.Context()
	in := harness.NewInputs("glance", "gl", name, env.DB)
	spec := env.Provision(t, in, release)
	s := &site{Inputs: in, t: t, ns: in.Namespace, name: "glance", buckets: map[string]string{fast: name + "-fast", archive: name + "-archive"}}
	for _, b := range s.buckets {
		poll.Must(t, env.S3.CreateBucket(ctx, b))
	}
	poll.Must(t, env.K8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: "s3"},
		StringData: map[string]string{"access-key-id": env.S3.AccessKey, "secret-access-key": env.S3.SecretKey}}))
	for backend, bucket := range s.buckets {
		b := &glancev1.GlanceBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: backend},
			Spec: glancev1.GlanceBackendSpec{
				GlanceRef: glancev1.GlanceRef{Name: s.name}, Type: glancev1.BackendS3, IsDefault: backend == fast,
				S3: &glancev1.S3Spec{Host: env.S3.URL(), Bucket: bucket, Region: env.S3.Region,
					CredentialsSecretRef: glancev1.CredentialsSecretRef{Name: "s3"}},
			},
		}
		glance.DefaultBackend(b)
		poll.Must(t, env.K8s.Create(ctx, b))
	}
	g := &glancev1.Glance{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name},
		Spec:       glancev1.GlanceSpec{ServiceSpec: spec},
	}
	if mutate != nil {
		mutate(g)
	}
	glance.Default(g)
	poll.Must(t, env.K8s.Create(ctx, g))
	return s
}

func (s *site) key() client.ObjectKey { return client.ObjectKey{Namespace: s.ns, Name: s.name} }

// glance reads the CR.
func (s *site) glance() *glancev1.Glance {
	var g glancev1.Glance
	poll.Must(s.t, env.K8s.Get(s.t.Context(), s.key(), &g))
	return &g
}

// syncDatabase runs the real db-sync Job (glance-manage db sync and
// load_metadefs), reports it finished and waits for DatabaseReady.
func (s *site) syncDatabase() {
	s.t.Helper()
	env.SyncDatabase(s.t, s.glance(), client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-sync"}, imageTrees(s.t))
}

// startAPI runs the API container of the Deployment in its launch mode
// (eventlet glance-api below 2026.1, uwsgi with the image's WSGI entry
// point from 2026.1) and waits until /healthcheck answers.
func (s *site) startAPI() *harness.API {
	s.t.Helper()
	d := env.Deployment(s.t, s.key(), "")
	return env.StartAPI(s.t, d, "glance-api", s.launch())
}

// launch runs either launch mode with the trees the image ships.
func (s *site) launch() harness.Launch {
	return harness.Launch{
		Map: localsvc.MapGlanceAPI, Provide: imageTrees(s.t),
		Ready: func(a *harness.API) error {
			if a.Container.Argv[0] == "uwsgi" {
				return harness.UWSGIReady("healthcheck")(a)
			}
			return localsvc.WaitHTTP(a.Proc, a.URL+"healthcheck", 200, 2*time.Minute)
		},
	}
}

// imageTrees are the trees a Glance image ships (localsvc.GlanceImageTrees).
func imageTrees(t *testing.T) map[string]string {
	root, err := testenv.RepoRoot()
	poll.Must(t, err)
	return localsvc.GlanceImageTrees(root)
}

// upToReady walks a new CR to Ready with the real db-sync and API.
func (s *site) upToReady() *harness.API {
	s.t.Helper()
	s.syncDatabase()
	a := s.startAPI()
	env.Ready(s.t, s.glance(), s.key(), a)
	return a
}

// waitBackend waits until the backend's condition typ has status for its
// current generation.
func (s *site) waitBackend(name, typ string, status metav1.ConditionStatus) {
	s.t.Helper()
	poll.Until(s.t, harness.WaitLong, func() error {
		var b glancev1.GlanceBackend
		if err := env.K8s.Get(s.t.Context(), client.ObjectKey{Namespace: s.ns, Name: name}, &b); err != nil {
			return err
		}
		c := meta.FindStatusCondition(b.Status.Conditions, typ)
		if c == nil || c.Status != status || c.ObservedGeneration != b.Generation {
			return fmt.Errorf("backend %s: %s = %v, want %s", name, typ, c, status)
		}
		return nil
	})
}
