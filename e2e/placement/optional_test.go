package placement_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestAdmissionRefusesInvalidCRs: the chart's webhooks reach the operator
// process and refuse what the CRD schema cannot catch.
func TestAdmissionRefusesInvalidCRs(t *testing.T) {
	s := &site{t: t, ctx: t.Context(), c: env.K8s, ns: "e2e-admission", name: "p-admission", schema: "pl_admission"}
	poll.Must(t, env.K8s.Create(s.ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.ns}}))
	for name, mutate := range map[string]func(*placementv1.Placement){
		"option not in the release's catalog": func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"no_such_option": "1"}}
		},
		"harakiri beyond the drain window": func(p *placementv1.Placement) {
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Harakiri: ptr.To(int32(30))}}
		},
	} {
		p := newPlacement(s, "2025.2")
		mutate(p)
		err := env.K8s.Create(s.ctx, p)
		if err == nil {
			t.Errorf("%s: admitted", name)
			_ = env.K8s.Delete(s.ctx, p)
			continue
		}
		if !strings.Contains(err.Error(), `admission webhook "vplacement.openstack.c5c3.io" denied the request`) {
			t.Errorf("%s: refused, but not by the webhook: %v", name, err)
		}
	}
}

// TestHPAAndNetworkPolicy: both children follow the spec on and off, and
// the Placement is Ready with both on.
func TestHPAAndNetworkPolicy(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	s.ready()
	suite.HPAAndNetworkPolicy(t, s.in, waitLong,
		func(a *serviceapi.AutoscalingSpec, np *serviceapi.NetworkPolicySpec) {
			s.update(func(p *placementv1.Placement) { p.Spec.Autoscaling, p.Spec.NetworkPolicy = a, np })
		},
		func(typ, reason string) { s.condition(typ, metav1.ConditionTrue, reason) },
		func(*networkingv1.NetworkPolicy) { s.ready() })
}

// TestHTTPRoute: without the Gateway API CRDs the route is reported
// GatewayAPINotInstalled; once they are installed and the operator
// restarted, the HTTPRoute is created and follows its parent's Accepted.
func TestHTTPRoute(t *testing.T) {
	const host = "placement.example.org"
	s := newSite(t, env.K8s, "2025.2", func(p *placementv1.Placement) {
		p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: host, ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	})
	suite.HTTPRoute(t, s.in, &env, host, waitLong,
		func() { s.update(func(p *placementv1.Placement) { p.Spec.Gateway = nil }) },
		func(typ string, status metav1.ConditionStatus, reason string) { s.condition(typ, status, reason) }, s.ready)
}
