package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Barbican exposed through a Gateway and autoscaled: the HTTPRoute has no
// request timeout (barbican answers short requests), status.endpoint and
// host_href are the gateway's https://hostname without a trailing slash,
// and the HPA exists. Turning both off removes them (NotRequired).
func TestGatewayAndAutoscalingOnAndOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	b := newBarbican(ns, "barbican")
	b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "barbican.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(70))}
	install(t, ns, b)
	key := client.ObjectKey{Namespace: ns, Name: b.Name}
	suite.Eventually(t, "route accepted", func() error { return testenv.RouteAccepted(ctx, k8s, key, true) })
	b = waitCondition(t, ns, b.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	waitCondition(t, ns, b.Name, conditions.TypeHPAReady, metav1.ConditionTrue, conditions.ReasonHPAReady)

	if b.Status.Endpoint != "https://barbican.example.org" {
		t.Errorf("endpoint = %q, want https://barbican.example.org", b.Status.Endpoint)
	}
	if _, conf := configOf(t, deployment(t, ns, b.Name)); !containsLine(conf, "host_href = https://barbican.example.org") {
		t.Errorf("barbican.conf lacks the gateway's host_href:\n%s", conf)
	}
	route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: b.Name}}
	if !suite.Exists(t, route) || route.Spec.Rules[0].Timeouts != nil {
		t.Errorf("route rules = %+v, want no timeouts", route.Spec.Rules)
	}
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: b.Name}}
	if !suite.Exists(t, hpa) || hpa.Spec.MaxReplicas != 5 {
		t.Errorf("HPA = %+v", hpa.Spec)
	}

	// host_href changes with the gateway: a new config, which the db-sync
	// Job mounts too, so it runs again before the Deployment moves.
	gen, sync := deployment(t, ns, b.Name).Generation, suite.JobUID(t, ns, b.Name+"-db-sync")
	update(t, ns, b.Name, func(b *barbicanv1.Barbican) { b.Spec.Gateway, b.Spec.Autoscaling = nil, nil })
	suite.FinishNewJob(t, ns, b.Name+"-db-sync", sync, true)
	suite.RollOutAfter(t, ns, b.Name, gen)
	waitCondition(t, ns, b.Name, conditions.TypeHTTPRouteReady, metav1.ConditionTrue, conditions.ReasonHTTPRouteNotRequired)
	waitCondition(t, ns, b.Name, conditions.TypeHPAReady, metav1.ConditionTrue, conditions.ReasonHPANotRequired)
	suite.Eventually(t, "route and HPA deleted", func() error {
		if suite.Exists(t, route) || suite.Exists(t, hpa) {
			return errorf("still present")
		}
		return nil
	})
}

// containsLine reports a whole line of conf equal to line.
func containsLine(conf, line string) bool {
	return slices.Contains(strings.Split(conf, "\n"), line)
}
