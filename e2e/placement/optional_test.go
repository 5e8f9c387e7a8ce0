package placement_test

import (
	"fmt"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/testenv"
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
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &shared.UWSGISpec{Harakiri: ptr.To(int32(30))}}
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

// TestHPAAndNetworkPolicy: both children follow the spec on and off.
func TestHPAAndNetworkPolicy(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	s.ready()
	s.update(func(p *placementv1.Placement) {
		p.Spec.Autoscaling = &shared.AutoscalingSpec{MinReplicas: ptr.To(int32(2)), MaxReplicas: 4, TargetCPUUtilization: ptr.To(int32(70))}
		p.Spec.NetworkPolicy = &shared.NetworkPolicySpec{Ingress: []shared.NetworkPolicyIngressSource{
			{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "openstack"}}},
		}}
	})
	s.condition(placementv1.ConditionHPAReady, metav1.ConditionTrue, "HPAReady")
	s.condition(placementv1.ConditionNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyReady")
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}}
	np := &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}}
	if !s.exists(hpa) || hpa.Spec.MaxReplicas != 4 {
		t.Errorf("HPA missing or wrong: %+v", hpa.Spec)
	}
	if !s.exists(np) || len(np.Spec.Ingress) == 0 {
		t.Errorf("NetworkPolicy missing or without ingress: %+v", np.Spec)
	}
	s.ready()

	s.update(func(p *placementv1.Placement) { p.Spec.Autoscaling, p.Spec.NetworkPolicy = nil, nil })
	s.condition(placementv1.ConditionHPAReady, metav1.ConditionTrue, "HPANotRequired")
	s.condition(placementv1.ConditionNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyNotRequired")
	poll.Until(t, waitLong, func() error {
		if s.exists(hpa) || s.exists(np) {
			return fmt.Errorf("HPA or NetworkPolicy still there")
		}
		return nil
	})
}

// TestHTTPRoute: without the Gateway API CRDs the route is reported
// GatewayAPINotInstalled; once they are installed and the operator
// restarted, the HTTPRoute is created and follows its parent's Accepted.
func TestHTTPRoute(t *testing.T) {
	withGateway := func(p *placementv1.Placement) {
		p.Spec.Gateway = &shared.GatewaySpec{Hostname: "placement.example.org", ParentRef: shared.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	}
	s := newSite(t, env.K8s, "2025.2", withGateway)
	s.condition(placementv1.ConditionHTTPRouteReady, metav1.ConditionFalse, "GatewayAPINotInstalled")

	poll.Must(t, suite.InstallCRDs(env.Mgmt, true))
	poll.Must(t, env.Op.Restart())
	s.condition(placementv1.ConditionHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}}
	if !s.exists(route) || len(route.Spec.Hostnames) != 1 || route.Spec.Hostnames[0] != "placement.example.org" {
		t.Fatalf("HTTPRoute missing or wrong: %+v", route.Spec)
	}
	// No Gateway controller runs here: report the parent's acceptance as one would.
	poll.Must(t, testenv.RouteAccepted(s.ctx, env.K8s, client.ObjectKeyFromObject(route), true))
	s.condition(placementv1.ConditionHTTPRouteReady, metav1.ConditionTrue, "HTTPRouteAccepted")
	s.ready()

	s.update(func(p *placementv1.Placement) { p.Spec.Gateway = nil })
	s.condition(placementv1.ConditionHTTPRouteReady, metav1.ConditionTrue, "HTTPRouteNotRequired")
	poll.Until(t, waitLong, func() error {
		if s.exists(route) {
			return fmt.Errorf("HTTPRoute still there")
		}
		return nil
	})
}
