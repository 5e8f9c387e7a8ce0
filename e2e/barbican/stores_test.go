package barbican_test

import (
	"net/url"
	"slices"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestSecondStoreRefused: the chart's webhooks (served by the operator
// process) refuse a second default store and a second OpenBao store of the
// same Barbican, saying which store is in the way, and store nothing.
func TestSecondStoreRefused(t *testing.T) {
	s := newSite(t, "2025.2")
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
		b.Spec.NetworkPolicy = &shared.NetworkPolicySpec{Ingress: []shared.NetworkPolicyIngressSource{{NamespaceSelector: &metav1.LabelSelector{}}}}
	})
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	oldPort := port(t, s.vault.URL)
	if ports := egressPorts(s); !slices.Contains(ports, oldPort) {
		t.Fatalf("egress ports %v lack the store's %d", ports, oldPort)
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
	ports := egressPorts(s)
	if newPort := port(t, next.URL); !slices.Contains(ports, newPort) || slices.Contains(ports, oldPort) {
		t.Errorf("egress ports %v: want the new store's %d and not the old one's %d", ports, newPort, oldPort)
	}
}

// egressPorts lists the TCP ports the Barbican's NetworkPolicy lets out.
func egressPorts(s *site) []int {
	s.T.Helper()
	var np networkingv1.NetworkPolicy
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &np))
	var out []int
	for _, r := range np.Spec.Egress {
		for _, p := range r.Ports {
			if p.Port != nil && (p.Protocol == nil || *p.Protocol == corev1.ProtocolTCP) {
				out = append(out, p.Port.IntValue())
			}
		}
	}
	return out
}

// port is the port of an https://host:port URL.
func port(t *testing.T, raw string) int {
	t.Helper()
	u, err := url.Parse(raw)
	poll.Must(t, err)
	n, err := strconv.Atoi(u.Port())
	poll.Must(t, err)
	return n
}
