package barbican_test

import (
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/faults"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// The fault scenarios of the Barbican chart (e2e/faults: the webhook down,
// the namespace-scoped RBAC); the shared mechanism's run on a Placement.
func TestFaults(t *testing.T) {
	faults.RunChart(t, faults.Subject[barbicanv1.Barbican, *barbicanv1.Barbican]{
		Env:        &env,
		Site:       func(t *testing.T) *suite.Site { return newSite(t, "2026.1").Site },
		Conditions: func(b *barbicanv1.Barbican) []metav1.Condition { return b.Status.Conditions },
		New: func(ns, name string) *barbicanv1.Barbican {
			in := &suite.Site{NS: ns, Schema: name, Service: "barbican"}
			return &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: barbicanv1.BarbicanSpec{ServiceSpec: in.Spec("2026.1", "", env.DB.Port)}}
		},
		Change: func(b *barbicanv1.Barbican) { b.Spec.Deployment.Replicas++ },
	})
}

// TestOpenBaoOutage: the default store's OpenBao server goes away under a
// running Barbican (killed; its data stays). The store's next check (every
// 15 minutes, or on any change of its Barbican: here an annotation) reports
// CredentialsReady=False/OpenBaoUnreachable; the Barbican then has no
// credential-ready default store, reports SecretStoresReady=False/
// NoDefaultSecretStore and Ready=False, and keeps its last good projection:
// the recorded stores, the config Secret, the Deployment and its pods stay,
// and no SecretStoreDetached is raised. Once the server is back (same URL,
// same data) the store's retry (30 s) finds it and the Barbican is Ready on
// the same pods.
func TestOpenBaoOutage(t *testing.T) {
	s := newSite(t, "2026.1")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	key := client.ObjectKey{Namespace: s.NS, Name: s.Name}
	running := faults.Observe(t, s.C, key)
	projected := s.barbican().Status.ProjectedSecretStores

	s.vault.Halt()
	halted := true
	t.Cleanup(func() {
		if halted {
			_ = s.vault.Resume(t.Context())
		}
	})
	poked := time.Now()
	s.update(func(b *barbicanv1.Barbican) {
		metav1.SetMetaDataAnnotation(&b.ObjectMeta, "e2e.c5c3.io/poke", poked.Format(time.RFC3339Nano))
	})
	s.storeCondition("vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonOpenBaoUnreachable)
	s.condition(barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)
	s.condition(conditions.TypeReady, metav1.ConditionFalse, "")
	t.Logf("the outage reported %s after the pass began", time.Since(poked).Round(100*time.Millisecond))
	running.Kept(t, "OpenBao down")
	if got := s.barbican().Status.ProjectedSecretStores; !slices.Equal(got, projected) {
		t.Errorf("projectedSecretStores %v during the outage, want the last good %v", got, projected)
	}

	poll.Must(t, s.vault.Resume(t.Context()))
	halted, back := false, time.Now()
	s.storeCondition("vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	t.Logf("Ready %s after the server was back", time.Since(back).Round(100*time.Millisecond))
	running.Kept(t, "OpenBao back")
	if n := suite.Events(t, env.K8s, s.NS, "Barbican", s.Name)["SecretStoreDetached"]; n != 0 {
		t.Errorf("%d SecretStoreDetached events, want none: the store was never de-projected", n)
	}
	s.serves()
}
