package render_test

import (
	"math"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func TestMaxUserConnections(t *testing.T) {
	mut := func(f func(*barbicanv1.Barbican)) *barbicanv1.Barbican { b := minimal(); f(b); return b }
	cases := []struct {
		name string
		b    *barbicanv1.Barbican
		want int32
	}{
		{"defaults give 10", minimal(), 10},
		{"no deployment block", mut(func(b *barbicanv1.Barbican) { b.Spec.Deployment = nil }), 10},
		{"one replica", mut(func(b *barbicanv1.Barbican) { b.Spec.Deployment.Replicas = 1 }), 6},
		{"processes and threads", mut(func(b *barbicanv1.Barbican) {
			b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 4, Threads: 3}}
		}), (3+1)*4*3 + 2},
		{"non-positive uwsgi values fall back", mut(func(b *barbicanv1.Barbican) {
			b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 0, Threads: -2}}
		}), 10},
		{"HPA max replicas replace replicas", mut(func(b *barbicanv1.Barbican) {
			b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 8}
		}), (8+1)*2*1 + 2},
		{"full: HPA 6, 4 processes, 2 threads", full(), (6+1)*4*2 + 2},
		{"saturates", mut(func(b *barbicanv1.Barbican) {
			b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: math.MaxInt32}
			b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: math.MaxInt32, Threads: math.MaxInt32}}
		}), math.MaxInt32},
	}
	for _, tc := range cases {
		if got := render.MaxUserConnections(tc.b); got != tc.want {
			t.Errorf("%s: MaxUserConnections = %d, want %d", tc.name, got, tc.want)
		}
	}
}
