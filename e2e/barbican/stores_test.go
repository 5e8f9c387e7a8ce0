package barbican_test

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestSecondStoreRefused: the chart's webhooks (served by the operator
// process) refuse a second default store and a second OpenBao store of the
// same Barbican, saying which store is in the way, and store nothing.
func TestSecondStoreRefused(t *testing.T) {
	s := newSite(t, "2025.2")
	// The Barbican's conditions move while it provisions, syncs and rolls
	// out; the store's wait for its projection until then: wait on the
	// one that shows progress first.
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	s.storeCondition("vault", conditions.TypeReady, metav1.ConditionTrue, "")
	suite.Refused(t, env.K8s, s.store("other", s.vault, "bao", true),
		"spec.isDefault", "already has the default store vault")
	suite.Refused(t, env.K8s, s.store("other", s.vault, "bao", false),
		"spec.type", "already has the OpenBao store vault")
}

// TestStoreReplaced: with a NetworkPolicy, the store is deleted and
// another takes its place on another server. The Barbican reports
// SecretStoreDetached for the store it dropped, projects the new one,
// egress follows (the new server's port in, the old one's out) and the API
// runs with the new store to Ready.
func TestStoreReplaced(t *testing.T) {
	s := newSite(t, "2026.1", func(b *barbicanv1.Barbican) {
		b.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{NamespaceSelector: &metav1.LabelSelector{}}}}
	})
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	oldPort := port(t, s.vault.URL)
	if np := s.networkPolicy(); !suite.EgressTo(np, oldPort) {
		t.Fatalf("egress %+v lacks the store's port %d", np.Spec.Egress, oldPort)
	}

	next := s.brownfield("bao2")
	poll.Must(t, env.K8s.Delete(s.Ctx, &barbicanv1.BarbicanSecretStore{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: "vault"}}))
	poll.Must(t, env.K8s.Create(s.Ctx, s.store("vault2", next, "bao2", true)))
	suite.WaitEvent(t, env.K8s, s.NS, "Barbican", s.Name, "SecretStoreDetached", waitLong)
	s.storeCondition("vault2", conditions.TypeReady, metav1.ConditionTrue, "")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	if got := s.barbican().Status.ProjectedSecretStores; !slices.Equal(got, []string{"vault2"}) {
		t.Errorf("projectedSecretStores %v, want [vault2]", got)
	}
	np := s.networkPolicy()
	if newPort := port(t, next.URL); !suite.EgressTo(np, newPort) || suite.EgressTo(np, oldPort) {
		t.Errorf("egress %+v: want the new store's port %d and not the old one's %d", np.Spec.Egress, newPort, oldPort)
	}
}

// networkPolicy reads the Barbican's NetworkPolicy.
func (s *site) networkPolicy() *networkingv1.NetworkPolicy {
	s.T.Helper()
	var np networkingv1.NetworkPolicy
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &np))
	return &np
}

// port is the port of an https://host:port URL.
func port(t *testing.T, raw string) int32 {
	t.Helper()
	u, err := url.Parse(raw)
	poll.Must(t, err)
	n, err := strconv.ParseInt(u.Port(), 10, 32)
	poll.Must(t, err)
	return int32(n)
}
