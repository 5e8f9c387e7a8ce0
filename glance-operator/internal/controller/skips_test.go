package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
)

// crlfBackend is a backend of glance whose extraOptions value carries a
// line break. The webhook refuses it; this suite runs without webhooks, as a
// CR admitted before the rule existed would, and the renderer skips it.
func crlfBackend(ns, name, glance, secret string, isDefault bool) *glancev1.GlanceBackend {
	b := fixture.S3Backend(ns, name, glance, secret, isDefault)
	b.Spec.ExtraOptions = map[string]string{"comment": "first line\nsecond line"}
	return b
}

// skipEvents waits for the GlanceBackendSkipped Warnings on the Glance to
// have been emitted want times and returns them.
func skipEvents(t *testing.T, ns string, want int) []corev1.Event {
	t.Helper()
	var events []corev1.Event
	suite.Eventually(t, fmt.Sprintf("%d GlanceBackendSkipped emissions", want), func() error {
		events = eventsOf(t, ns, "glance", "GlanceBackendSkipped")
		if n := emissions(events); n != want {
			return fmt.Errorf("%d emissions: %+v", n, events)
		}
		for _, e := range events {
			if e.Type != corev1.EventTypeWarning {
				return fmt.Errorf("GlanceBackendSkipped of type %s", e.Type)
			}
		}
		return nil
	})
	return events
}

// A backend whose extraOptions value carries a line break is left out while
// its siblings keep projecting, with one Warning for the skip and none for
// the passes after it; a second backend skipped later is a new skip.
func TestControlCharacterBackendSkipped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	hits := countProbes(t, ns, "glance")
	d := deployment(t, ns, "glance")
	config, backends := mounts(d)
	job := jobUID(t, ns, "glance-db-sync")

	must(t, k8s.Create(ctx, crlfBackend(ns, "crlf", "glance", "s3-a", false)))
	// The credentials are fine: only the rendered value is refused.
	waitBackend(t, ns, "crlf", glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonWaitingForBackends, "crlf skipped: ")
	events := skipEvents(t, ns, 1)
	if !strings.Contains(events[0].Message, "GlanceBackend crlf skipped") || strings.Contains(events[0].Message, "second line") {
		t.Errorf("skip event message %q: want the backend named and the value left out", events[0].Message)
	}
	c := condition(get(t, ns, "glance"), glancev1.ConditionBackendsReady)
	if !strings.Contains(c.Message, "projected: archive, fast") {
		t.Errorf("BackendsReady message %q: the siblings are not projected", c.Message)
	}

	// The siblings' projection is the one the API already runs: nothing moves.
	passes(t, ns, "glance", hits)
	skipEvents(t, ns, 1)
	if c, b := mounts(deployment(t, ns, "glance")); c != config || b != backends {
		t.Errorf("Deployment mounts %s / %s, want %s / %s", c, b, config, backends)
	}
	if !strings.Contains(backendsConf(t, ns, backends), "[fast]") || !strings.Contains(backendsConf(t, ns, backends), "[archive]") {
		t.Errorf("backends.conf lost a sibling")
	}
	if jobUID(t, ns, "glance-db-sync") != job {
		t.Error("db-sync re-ran for a skipped backend")
	}
	waitBackend(t, ns, "crlf", glancev1.ConditionConfigProjected, metav1.ConditionFalse, glancev1.ReasonWaitingForProjection)
	waitBackend(t, ns, "fast", glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
	waitBackend(t, ns, "archive", glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
	waitCondition(t, ns, "glance", conditions.TypeDeploymentReady, metav1.ConditionTrue, "DeploymentReady")
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")

	// A second backend skipped is a new skip: one more Warning. (The
	// recorder folds it into the first Event's series: same reason, same object.)
	updateBackend(t, ns, "archive", func(b *glancev1.GlanceBackend) {
		b.Spec.ExtraOptions = map[string]string{"comment": "carriage\rreturn"}
	})
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonWaitingForBackends, "archive skipped: ")
	skipEvents(t, ns, 2)
	waitBackend(t, ns, "fast", glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
}

// A credential-ready backend whose Secret is gone by the time the Glance
// reads it (deleted between the backend controller's check and the
// Glance's pass) is skipped with a Warning, and the siblings keep
// projecting. The test holds that window open by writing the stale verdict
// itself: the backend controller ignores status-only updates and only
// corrects it on its next wake-up.
func TestMissingSecretBackendSkipped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	_, backends := mounts(deployment(t, ns, "glance"))
	// The install may have projected an earlier, partial set (one backend
	// judged credential-ready before the other): the skip must add none.
	installed := backendsSecrets(t, ns)

	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "cold", "glance", "s3-missing", false)))
	waitBackend(t, ns, "cold", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForCredentials)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonWaitingForBackends, "waiting for credentials: cold")
	if n := emissions(eventsOf(t, ns, "glance", "GlanceBackendSkipped")); n != 0 {
		t.Fatalf("a pending backend was reported skipped (%d)", n)
	}

	suite.Eventually(t, "cold skipped for its missing Secret", func() error {
		for _, e := range eventsOf(t, ns, "glance", "GlanceBackendSkipped") {
			if strings.Contains(e.Message, "GlanceBackend cold skipped: Secret s3-missing not found") {
				return nil
			}
		}
		b := getBackend(t, ns, "cold")
		if !meta.IsStatusConditionTrue(b.Status.Conditions, glancev1.ConditionCredentialsReady) {
			meta.SetStatusCondition(&b.Status.Conditions, metav1.Condition{
				Type: glancev1.ConditionCredentialsReady, Status: metav1.ConditionTrue, Reason: glancev1.ReasonCredentialsAvailable,
				Message: "stale verdict written by the test", ObservedGeneration: b.Generation,
			})
			if err := k8s.Status().Update(ctx, b); err != nil {
				return err
			}
		}
		return fmt.Errorf("no GlanceBackendSkipped event for cold yet")
	})
	skipEvents(t, ns, 1)
	// The backend controller puts its own verdict back.
	waitBackend(t, ns, "cold", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForCredentials)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonWaitingForBackends, "waiting for credentials: cold")
	if _, b := mounts(deployment(t, ns, "glance")); b != backends {
		t.Errorf("Deployment mounts %s, want the siblings' %s", b, backends)
	}
	wantNoNewBackendsSecret(t, ns, installed, backends)
}

// A default that is skipped leaves no default: NoDefaultBackend, the last
// good projection stays, and the skip is still warned once, not on every pass.
func TestSkippedDefaultWarnsOnce(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	hits := countProbes(t, ns, "glance")
	config, backends := mounts(deployment(t, ns, "glance"))

	updateBackend(t, ns, "fast", func(b *glancev1.GlanceBackend) {
		b.Spec.ExtraOptions = map[string]string{"comment": "first line\nsecond line"}
	})
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonNoDefaultBackend, "none of the 2 attached GlanceBackends")
	waitEvent(t, ns, "glance", "GlanceBackendSkipped", corev1.EventTypeWarning)
	passes(t, ns, "glance", hits)
	if n := emissions(eventsOf(t, ns, "glance", "GlanceBackendSkipped")); n != 1 {
		t.Errorf("GlanceBackendSkipped emitted %d times for one skip of the default, want once", n)
	}
	if c, b := mounts(deployment(t, ns, "glance")); c != config || b != backends {
		t.Errorf("Deployment mounts %s / %s, want the last good %s / %s", c, b, config, backends)
	}
}
