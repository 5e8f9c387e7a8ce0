package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// With no default store the projection is invalid: SecretStoresReady says
// so (no event), the recorded projection, the config Secret and the
// Deployment stay as they were, and nothing rolls.
func TestNoDefaultStoreKeepsTheLastProjection(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	before, _ := toReady(t, ns, newBarbican(ns, "barbican"))
	d0 := deployment(t, ns, "barbican")

	updateStore(t, ns, "vault", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.IsDefault = false })
	b := waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)
	waitCondition(t, ns, "barbican", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
	assertLastGood(t, ns, before, b, d0)
	if n := len(suite.Events(t, ns, "barbican", barbicanv1.ReasonNoDefaultSecretStore)); n != 0 {
		t.Errorf("%d NoDefaultSecretStore events, want none", n)
	}
}

// A second credential-ready store is refused as a second OpenBao store:
// [vault_plugin] is process-global. The last projection stays.
func TestSecondOpenBaoStoreKeepsTheLastProjection(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	before, srv := toReady(t, ns, newBarbican(ns, "barbican"))
	d0 := deployment(t, ns, "barbican")

	must(t, k8s.Create(context.Background(), fixture.BrownfieldStore(ns, "second", "barbican", srv.URL, approleSecret, caSecret, false)))
	waitStore(t, ns, "second", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	b := waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonMultipleOpenBaoStores)
	if c := condition(b, barbicanv1.ConditionSecretStoresReady); !strings.Contains(c.Message, "second, vault") {
		t.Errorf("message does not name both stores: %q", c.Message)
	}
	assertLastGood(t, ns, before, b, d0)
	waitStore(t, ns, "second", barbicanv1.ConditionConfigProjected, metav1.ConditionFalse, barbicanv1.ReasonWaitingForProjection)
}

// Replacing the default store by one on another server projects the new
// one; the old one leaves the projection with a SecretStoreDetached
// Warning naming it, and its host leaves the record (and the egress).
func TestReplacedStoreIsDetachedWithAWarning(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	_, srv := toReady(t, ns, newBarbican(ns, "barbican"))
	other := baoWith(t, ns, "other-approle", "other-ca")
	sync := suite.JobUID(t, ns, "barbican-db-sync")

	must(t, k8s.Delete(context.Background(), fixture.BrownfieldStore(ns, "vault", "barbican", "", "", "", true)))
	must(t, k8s.Create(context.Background(), fixture.BrownfieldStore(ns, "vault-b", "barbican", other.URL, "other-approle", "other-ca", true)))
	events := suite.WaitEvent(t, ns, "barbican", "SecretStoreDetached", corev1.EventTypeWarning)
	if !strings.Contains(events[0].Message, "vault left the projection") {
		t.Errorf("event %q does not name the store", events[0].Message)
	}
	suite.Eventually(t, "vault-b projected", func() error {
		b := get(t, ns, "barbican")
		if !slices.Equal(b.Status.ProjectedSecretStores, []string{"vault-b"}) {
			return errorf("projectedSecretStores = %v", b.Status.ProjectedSecretStores)
		}
		if !slices.Equal(b.Status.ProjectedSecretStoreHosts, []string{other.URL}) {
			return errorf("projectedSecretStoreHosts = %v, want only %s (not %s)", b.Status.ProjectedSecretStoreHosts, other.URL, srv.URL)
		}
		return nil
	})
	// The new config re-runs the db-sync Job (its pod template mounts it)
	// before the Deployment moves onto it.
	suite.FinishNewJob(t, ns, "barbican-db-sync", sync, true)
	waitStore(t, ns, "vault-b", barbicanv1.ConditionConfigProjected, metav1.ConditionTrue, barbicanv1.ReasonConfigProjected)
}

// A CR/LF in a value that would reach [vault_plugin] invalidates the
// projection: WaitingForSecretStores, a BarbicanSecretStoreSkipped
// Warning, and the last projection stays.
func TestStoreWithAControlCharacterIsSkipped(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	before, _ := toReady(t, ns, newBarbican(ns, "barbican"))
	d0 := deployment(t, ns, "barbican")

	updateStore(t, ns, "vault", func(s *barbicanv1.BarbicanSecretStore) {
		s.Spec.ExtraOptions = map[string]string{"timeout": "60\n[DEFAULT]\ndebug = true"}
	})
	var b *barbicanv1.Barbican
	suite.Eventually(t, "vault skipped", func() error {
		b = waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForSecretStores)
		if c := condition(b, barbicanv1.ConditionSecretStoresReady); !strings.Contains(c.Message, "vault skipped") {
			return errorf("message %q", c.Message)
		}
		return nil
	})
	suite.WaitEvent(t, ns, "barbican", "BarbicanSecretStoreSkipped", corev1.EventTypeWarning)
	assertLastGood(t, ns, before, b, d0)
}

// assertLastGood checks that an invalid projection changed nothing the pods
// run with: the record stays, and whole passes over it write no Deployment
// and no Secret.
func assertLastGood(t *testing.T, ns string, before, after *barbicanv1.Barbican, d0 *appsv1.Deployment) {
	t.Helper()
	if !slices.Equal(after.Status.ProjectedSecretStores, before.Status.ProjectedSecretStores) ||
		!slices.Equal(after.Status.ProjectedSecretStoreHosts, before.Status.ProjectedSecretStoreHosts) {
		t.Errorf("recorded projection changed: %v %v -> %v %v", before.Status.ProjectedSecretStores, before.Status.ProjectedSecretStoreHosts,
			after.Status.ProjectedSecretStores, after.Status.ProjectedSecretStoreHosts)
	}
	hits := testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: "barbican"})
	for _, w := range suite.QuietPasses(t, get(t, ns, "barbican"), hits) {
		if strings.Contains(w, "/deployments") || strings.Contains(w, "/secrets") {
			t.Errorf("an invalid projection wrote %s", w)
		}
	}
	if d := deployment(t, ns, "barbican"); d.Generation != d0.Generation {
		t.Errorf("the Deployment rolled: generation %d -> %d", d0.Generation, d.Generation)
	}
}
