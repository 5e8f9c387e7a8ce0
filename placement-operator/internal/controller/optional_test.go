package controller_test

import (
	"context"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func exists(t *testing.T, obj client.Object) bool { t.Helper(); return suite.Exists(t, obj) }

func TestHPAAndNetworkPolicyOnAndOff(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "placement"}}
	np := &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "placement"}}

	gen := deployment(t, ns, "placement").Generation
	update(t, ns, "placement", func(p *placementv1.Placement) {
		p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: ptr.To[int32](70)}
		p.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "nova"}}}}}
	})
	rollOutAfter(t, ns, "placement", gen)
	waitCondition(t, ns, "placement", placementv1.ConditionHPAReady, metav1.ConditionTrue, "HPAReady")
	waitCondition(t, ns, "placement", placementv1.ConditionNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyReady")
	if !exists(t, hpa) || hpa.Spec.MaxReplicas != 5 || *hpa.Spec.MinReplicas != 3 {
		t.Errorf("HPA = %+v", hpa.Spec)
	}
	if !exists(t, np) || len(np.Spec.Ingress) != 1 || len(np.Spec.Ingress[0].From) != 2 {
		t.Errorf("NetworkPolicy ingress = %+v (want the user source and the operator namespace)", np.Spec.Ingress)
	}
	if d := deployment(t, ns, "placement"); d.Spec.Replicas == nil || *d.Spec.Replicas != 3 {
		t.Errorf("live replicas not kept under autoscaling: %v", d.Spec.Replicas)
	}

	gen = deployment(t, ns, "placement").Generation
	update(t, ns, "placement", func(p *placementv1.Placement) { p.Spec.Autoscaling, p.Spec.NetworkPolicy = nil, nil })
	rollOutAfter(t, ns, "placement", gen)
	waitCondition(t, ns, "placement", placementv1.ConditionHPAReady, metav1.ConditionTrue, "HPANotRequired")
	waitCondition(t, ns, "placement", placementv1.ConditionNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyNotRequired")
	eventually(t, "HPA and NetworkPolicy deleted", func() error {
		if exists(t, hpa) || exists(t, np) {
			return errorf("still present")
		}
		return nil
	})
}

func TestHTTPRouteLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "placement.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(ctx, p))
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
	rollOut(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	key := client.ObjectKey{Namespace: ns, Name: p.Name}
	eventually(t, "route accepted", func() error { return testenv.RouteAccepted(ctx, k8s, key, true) })
	got := waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	if got.Status.Endpoint != "https://placement.example.org/" {
		t.Errorf("endpoint = %q", got.Status.Endpoint)
	}
	route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: p.Name}}
	if !exists(t, route) || route.Spec.Rules[0].Timeouts != nil {
		t.Errorf("route rules = %+v, want no timeouts", route.Spec.Rules)
	}

	update(t, ns, p.Name, func(p *placementv1.Placement) { p.Spec.Gateway = nil })
	waitCondition(t, ns, p.Name, placementv1.ConditionHTTPRouteReady, metav1.ConditionTrue, "HTTPRouteNotRequired")
	eventually(t, "route deleted", func() error {
		if exists(t, route) {
			return errorf("HTTPRoute still present")
		}
		return nil
	})
	if got := get(t, ns, p.Name); got.Status.Endpoint != "https://placement.example.org/" {
		t.Errorf("endpoint cleared or changed before the next rollout: %q", got.Status.Endpoint)
	}
}
