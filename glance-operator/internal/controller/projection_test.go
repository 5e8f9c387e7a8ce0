package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
)

// A backend attached to a running Glance reports ConfigProjected only once
// the Deployment mounts a backends Secret holding its section: rendering
// the Secret is not enough, the API must be able to serve the store.
// Detached, its section leaves the projection.
func TestBackendProjectedOnlyOnceMounted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	before := deployment(t, ns, "glance")
	_, oldBackends := mounts(before)
	installed := backendsSecrets(t, ns)
	job := jobUID(t, ns, "glance-db-sync")

	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "cold", "glance", "s3-a", false)))
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonAllBackendsProjected, "3 backends projected (archive, cold, fast)")
	// The new config re-runs db-sync first; until it ends the Deployment
	// keeps the old Secret, so the store is rendered but not served.
	waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")
	b := waitBackend(t, ns, "cold", glancev1.ConditionConfigProjected, metav1.ConditionFalse, glancev1.ReasonWaitingForProjection)
	if c := backendCondition(b, glancev1.ConditionConfigProjected); !strings.Contains(c.Message, oldBackends+", which has no [cold]") {
		t.Errorf("ConfigProjected message %q: want the mounted Secret %s named without [cold]", c.Message, oldBackends)
	}
	waitBackend(t, ns, "cold", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
	if _, mounted := mounts(deployment(t, ns, "glance")); mounted != oldBackends || strings.Contains(backendsConf(t, ns, mounted), "[cold]") {
		t.Fatalf("Deployment mounts %s before db-sync ended", mounted)
	}
	if secrets := backendsSecrets(t, ns); len(secrets) != len(installed)+1 || !slices.Contains(secrets, oldBackends) {
		t.Errorf("backends Secrets %v: want the install's %v and the rendered one with [cold]", secrets, installed)
	}

	finishNewJob(t, ns, "glance-db-sync", job, true)
	b = waitBackend(t, ns, "cold", glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
	_, newBackends := mounts(deployment(t, ns, "glance"))
	if newBackends == oldBackends || !strings.Contains(backendsConf(t, ns, newBackends), "[cold]") {
		t.Errorf("cold projected while the Deployment mounts %s", newBackends)
	}
	if c := backendCondition(b, glancev1.ConditionConfigProjected); !strings.Contains(c.Message, newBackends) {
		t.Errorf("ConfigProjected message %q does not name the mounted Secret %s", c.Message, newBackends)
	}
	suite.RollOutAfter(t, ns, "glance", before.Generation)
	waitBackend(t, ns, "cold", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")

	// Detach: the section leaves backends.conf and glance-api.conf as soon
	// as the backend is deleting (another controller's finalizer holds it).
	mid := deployment(t, ns, "glance")
	job = jobUID(t, ns, "glance-db-sync")
	updateBackend(t, ns, "cold", func(b *glancev1.GlanceBackend) { b.Finalizers = append(b.Finalizers, "test.c5c3.io/hold") })
	must(t, k8s.Delete(ctx, getBackend(t, ns, "cold")))
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonAllBackendsProjected, "2 backends projected (archive, fast)")
	finishNewJob(t, ns, "glance-db-sync", job, true)
	suite.RollOutAfter(t, ns, "glance", mid.Generation)
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	config, backends := mounts(deployment(t, ns, "glance"))
	if strings.Contains(backendsConf(t, ns, backends), "[cold]") {
		t.Errorf("backends.conf of %s still holds [cold]", backends)
	}
	if conf := apiConf(t, ns, config); !strings.Contains(conf, "enabled_backends = archive:s3,fast:s3") {
		t.Errorf("glance-api.conf after the detach:\n%s", conf)
	}
	if backends != oldBackends {
		t.Errorf("backends Secret %s after the detach, want the original content's %s", backends, oldBackends)
	}
	if b := getBackend(t, ns, "cold"); b.DeletionTimestamp.IsZero() {
		t.Error("cold is not held in deletion")
	}
	updateBackend(t, ns, "cold", func(b *glancev1.GlanceBackend) { b.Finalizers = nil })
	for _, name := range []string{"fast", "archive"} {
		b := getBackend(t, ns, name)
		if !meta.IsStatusConditionTrue(b.Status.Conditions, glancev1.ConditionConfigProjected) {
			t.Errorf("%s not projected after its sibling left: %v", name, b.Status.Conditions)
		}
	}
}
