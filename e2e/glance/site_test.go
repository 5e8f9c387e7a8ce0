package glance_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

const waitLong = 3 * time.Minute

// site is one Glance on its suite.Site with two GlanceBackends, "fast" (the
// default store) and "archive", each on its own bucket of the suite's S3
// server, reading the S3 account from the Secret "s3".
type site struct {
	*suite.Site
	buckets map[string]string
}

// newSite creates the inputs, the buckets, the backends and a Glance as a
// user writes them (the mutating webhooks fill the defaults), changed by
// mutate.
func newSite(t *testing.T, release string, mutate ...func(*glancev1.Glance)) *site {
	t.Helper()
	return newSiteOn(t, env.K8s, release, mutate...)
}

// newSiteOn is newSite with the inputs (credential Secrets, the S3
// Secret, the MariaDB CR) on c, a target cluster; the Glance and its
// backends stay on the management cluster.
func newSiteOn(t *testing.T, c client.Client, release string, mutate ...func(*glancev1.Glance)) *site {
	t.Helper()
	in := suite.NewSite(t, env.K8s, c, "glance", "g")
	s := &site{Site: in, buckets: map[string]string{"fast": in.Name + "-fast", "archive": in.Name + "-archive"}}
	for _, b := range s.buckets {
		poll.Must(t, env.S3.CreateBucket(s.Ctx, b))
	}
	poll.Must(t, c.Create(s.Ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: "s3"},
		StringData: map[string]string{"access-key-id": env.S3.AccessKey, "secret-access-key": env.S3.SecretKey}}))
	for name, bucket := range s.buckets {
		poll.Must(t, env.K8s.Create(s.Ctx, s.backend(name, bucket, "s3", name == "fast")))
	}
	g := &glancev1.Glance{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name},
		Spec:       glancev1.GlanceSpec{ServiceSpec: in.Spec(release, "", env.DB.Port)},
	}
	// glance-api runs under uwsgi from 2026.1 (suite.OneWorker); below,
	// the setting would only draw the webhook's warning.
	if release >= "2026.1" {
		g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: suite.OneWorker()}
	}
	for _, m := range mutate {
		m(g)
	}
	poll.Must(t, env.K8s.Create(s.Ctx, g))
	return s
}

// glance reads the CR.
func (s *site) glance() *glancev1.Glance {
	var g glancev1.Glance
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &g))
	return &g
}

// condition waits until the Glance's condition typ has status (and
// reason, if given) for the current generation.
func (s *site) condition(typ string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	s.T.Helper()
	var found *metav1.Condition
	poll.Until(s.T, waitLong, func() error {
		g := s.glance()
		c := meta.FindStatusCondition(g.Status.Conditions, typ)
		if c == nil || c.Status != status || c.ObservedGeneration != g.Generation || (reason != "" && c.Reason != reason) {
			return fmt.Errorf("want %s=%s %s at generation %d, phase %q; have %s", typ, status, reason, g.Generation, g.Status.UpgradePhase, suite.Conditions(g.Status.Conditions))
		}
		found = c
		return nil
	})
	return found
}

// backendCondition waits until the backend's condition typ has status
// (and reason, if given) for its current generation.
func (s *site) backendCondition(name, typ string, status metav1.ConditionStatus, reason string) {
	s.T.Helper()
	suite.WaitCondition(s.T, env.K8s, client.ObjectKey{Namespace: s.NS, Name: name},
		func(b *glancev1.GlanceBackend) []metav1.Condition { return b.Status.Conditions }, typ, status, reason, waitLong)
}

// backend is a GlanceBackend of the site on bucket, reading secret.
func (s *site) backend(name, bucket, secret string, isDefault bool) *glancev1.GlanceBackend {
	return &glancev1.GlanceBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: name},
		Spec: glancev1.GlanceBackendSpec{
			GlanceRef: glancev1.GlanceRef{Name: s.Name}, Type: glancev1.BackendS3, IsDefault: isDefault,
			S3: &glancev1.S3Spec{Host: env.S3.URL(), Bucket: bucket, Region: env.S3.Region,
				CredentialsSecretRef: glancev1.CredentialsSecretRef{Name: secret}},
		},
	}
}

// setDefault changes a backend's isDefault, retrying on conflicts.
func (s *site) setDefault(name string, isDefault bool) {
	s.T.Helper()
	b := &glancev1.GlanceBackend{}
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: name}, b))
	poll.Update(s.T, env.K8s, b, time.Minute, func() { b.Spec.IsDefault = isDefault })
}
