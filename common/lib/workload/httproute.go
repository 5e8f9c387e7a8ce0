package workload

import (
	"maps"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// HTTPRoute routes g.Hostname and g.EffectivePath() to the instance Service.
// requestTimeout is a Gateway API duration (e.g. "60s"); "" renders no
// timeouts block so the gateway's own default applies.
func HTTPRoute(id Identity, g serviceapi.GatewaySpec, port int32, requestTimeout string) *gatewayv1.HTTPRoute {
	ns := g.ParentRef.Namespace
	if ns == "" {
		ns = id.Namespace
	}
	parent := gatewayv1.ParentReference{
		Group:     new(gatewayv1.Group(gatewayv1.GroupName)),
		Kind:      new(gatewayv1.Kind("Gateway")),
		Namespace: new(gatewayv1.Namespace(ns)),
		Name:      gatewayv1.ObjectName(g.ParentRef.Name),
	}
	if g.ParentRef.SectionName != "" {
		parent.SectionName = new(gatewayv1.SectionName(g.ParentRef.SectionName))
	}

	rule := gatewayv1.HTTPRouteRule{
		Matches: []gatewayv1.HTTPRouteMatch{{
			Path: &gatewayv1.HTTPPathMatch{
				Type:  new(gatewayv1.PathMatchPathPrefix),
				Value: new(g.EffectivePath()),
			},
		}},
		BackendRefs: []gatewayv1.HTTPBackendRef{{
			BackendRef: gatewayv1.BackendRef{
				BackendObjectReference: gatewayv1.BackendObjectReference{
					// Group and kind spelled out as the API server would
					// default them, so the rendered and live specs compare equal.
					Group: new(gatewayv1.Group("")),
					Kind:  new(gatewayv1.Kind("Service")),
					Name:  gatewayv1.ObjectName(id.Instance),
					Port:  new(port),
				},
			},
		}},
	}
	if requestTimeout != "" {
		rule.Timeouts = &gatewayv1.HTTPRouteTimeouts{Request: new(gatewayv1.Duration(requestTimeout))}
	}

	var annotations map[string]string
	if len(g.Annotations) > 0 {
		annotations = maps.Clone(g.Annotations)
	}
	return &gatewayv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{
			Name:        id.Instance,
			Namespace:   id.Namespace,
			Labels:      id.Labels(),
			Annotations: annotations,
		},
		Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{parent}},
			Hostnames:       []gatewayv1.Hostname{gatewayv1.Hostname(g.Hostname)},
			Rules:           []gatewayv1.HTTPRouteRule{rule},
		},
	}
}

// HTTPRouteAccepted reports whether any parent has accepted the route; one
// accepting gateway is enough for traffic to flow.
func HTTPRouteAccepted(r *gatewayv1.HTTPRoute) bool {
	if r == nil {
		return false
	}
	for _, ps := range r.Status.Parents {
		if meta.IsStatusConditionTrue(ps.Conditions, string(gatewayv1.RouteConditionAccepted)) {
			return true
		}
	}
	return false
}

// HTTPRouteGVK is the Gateway API kind the HTTPRoute step probes and writes.
var HTTPRouteGVK = schema.GroupVersionKind{Group: gatewayv1.GroupName, Version: "v1", Kind: "HTTPRoute"}
