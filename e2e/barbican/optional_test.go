package barbican_test

import (
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestHPAAndNetworkPolicy: both children follow the spec on and off; the
// fail-closed policy lets the API pods reach the store's server (the port
// of its URL, from the store's projection) and the database, and the
// Barbican is Ready with both on.
func TestHPAAndNetworkPolicy(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.HPAAndNetworkPolicy(t, s.Site, waitLong,
		func(a *serviceapi.AutoscalingSpec, np *serviceapi.NetworkPolicySpec) {
			s.update(func(b *barbicanv1.Barbican) { b.Spec.Autoscaling, b.Spec.NetworkPolicy = a, np })
		},
		func(typ, reason string) { s.condition(typ, metav1.ConditionTrue, reason) },
		func(np *networkingv1.NetworkPolicy) {
			if p := port(t, s.vault.URL); !suite.EgressTo(np, p) {
				t.Errorf("NetworkPolicy egress %+v does not allow the store's OpenBao port %d", np.Spec.Egress, p)
			}
			if !suite.EgressTo(np, int32(env.DB.Port)) {
				t.Errorf("NetworkPolicy egress %+v does not allow the database port %d", np.Spec.Egress, env.DB.Port)
			}
			s.ready()
		})
}

// TestHTTPRoute: the Barbican's HTTPRoute waits for the Gateway API, then
// follows its parent's Accepted, the endpoint becomes https://<hostname>,
// and the route goes when spec.gateway is unset.
func TestHTTPRoute(t *testing.T) {
	const host = "key-manager.example.org"
	s := newSite(t, "2025.2", func(b *barbicanv1.Barbican) {
		b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: host, ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	})
	suite.HTTPRoute(t, s.Site, &env, host, waitLong,
		func() {
			if got := s.barbican().Status.Endpoint; got != "https://"+host {
				t.Errorf("endpoint %q with the route accepted, want https://%s", got, host)
			}
			s.update(func(b *barbicanv1.Barbican) { b.Spec.Gateway = nil })
		},
		func(typ string, status metav1.ConditionStatus, reason string) { s.condition(typ, status, reason) }, s.ready)
}
