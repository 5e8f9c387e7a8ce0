package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func TestHTTPRoute(t *testing.T) {
	tests := []struct {
		name        string
		g           serviceapi.GatewaySpec
		timeout     string
		wantNS      string
		wantSection *gatewayv1.SectionName
		wantPath    string
		wantTimeout *gatewayv1.HTTPRouteTimeouts
		wantAnn     map[string]string
	}{
		{
			name:   "defaults",
			g:      serviceapi.GatewaySpec{Hostname: "placement.example", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}},
			wantNS: "openstack", wantPath: "/",
		},
		{
			name: "everything set",
			g: serviceapi.GatewaySpec{
				Hostname:    "placement.example",
				ParentRef:   serviceapi.GatewayParentRef{Name: "gw", Namespace: "gateways", SectionName: "https"},
				Path:        "placement",
				Annotations: map[string]string{"cert-manager.io/issuer": "x"},
			},
			timeout: "120s",
			wantNS:  "gateways", wantSection: new(gatewayv1.SectionName("https")), wantPath: "/placement",
			wantTimeout: &gatewayv1.HTTPRouteTimeouts{Request: new(gatewayv1.Duration("120s"))},
			wantAnn:     map[string]string{"cert-manager.io/issuer": "x"},
		},
		{
			name:   "path with leading slash kept, empty annotations omitted",
			g:      serviceapi.GatewaySpec{Hostname: "h", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}, Path: "/api", Annotations: map[string]string{}},
			wantNS: "openstack", wantPath: "/api",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := &gatewayv1.HTTPRoute{
				ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: objLabels, Annotations: tt.wantAnn},
				Spec: gatewayv1.HTTPRouteSpec{
					CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{
						Group:       new(gatewayv1.Group("gateway.networking.k8s.io")),
						Kind:        new(gatewayv1.Kind("Gateway")),
						Namespace:   new(gatewayv1.Namespace(tt.wantNS)),
						Name:        "gw",
						SectionName: tt.wantSection,
					}}},
					Hostnames: []gatewayv1.Hostname{gatewayv1.Hostname(tt.g.Hostname)},
					Rules: []gatewayv1.HTTPRouteRule{{
						Matches: []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{
							Type: new(gatewayv1.PathMatchPathPrefix), Value: new(tt.wantPath),
						}}},
						BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{
							BackendObjectReference: gatewayv1.BackendObjectReference{
								Group: new(gatewayv1.Group("")), Kind: new(gatewayv1.Kind("Service")),
								Name: "p1", Port: new(int32(8778)),
							},
						}}},
						Timeouts: tt.wantTimeout,
					}},
				},
			}
			if diff := cmp.Diff(want, HTTPRoute(testID, tt.g, 8778, tt.timeout)); diff != "" {
				t.Errorf("HTTPRoute mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPRouteAccepted(t *testing.T) {
	cond := func(typ string, s metav1.ConditionStatus) metav1.Condition {
		return metav1.Condition{Type: typ, Status: s}
	}
	parent := func(conds ...metav1.Condition) gatewayv1.RouteParentStatus {
		return gatewayv1.RouteParentStatus{Conditions: conds}
	}
	route := func(parents ...gatewayv1.RouteParentStatus) *gatewayv1.HTTPRoute {
		r := &gatewayv1.HTTPRoute{}
		r.Status.Parents = parents
		return r
	}
	tests := []struct {
		name string
		r    *gatewayv1.HTTPRoute
		want bool
	}{
		{name: "nil route", r: nil, want: false},
		{name: "no status", r: route(), want: false},
		{name: "accepted false", r: route(parent(cond("Accepted", metav1.ConditionFalse))), want: false},
		{name: "other condition true", r: route(parent(cond("ResolvedRefs", metav1.ConditionTrue))), want: false},
		{name: "accepted true", r: route(parent(cond("Accepted", metav1.ConditionTrue))), want: true},
		{
			name: "one of two parents accepted",
			r: route(
				parent(cond("Accepted", metav1.ConditionFalse)),
				parent(cond("ResolvedRefs", metav1.ConditionFalse), cond("Accepted", metav1.ConditionTrue)),
			),
			want: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HTTPRouteAccepted(tt.r); got != tt.want {
				t.Errorf("HTTPRouteAccepted = %v, want %v", got, tt.want)
			}
		})
	}
}
