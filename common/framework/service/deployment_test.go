package service

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// The Service's Preserve keeps the cluster IPs the server allocated and a
// selector the live Service has narrowed: a pass that judged the latch on
// an older copy than the one Ensure updates over cannot widen it again.
func TestKeepServiceHoldsTheLatchOnTheLiveObject(t *testing.T) {
	id := workload.Identity{Service: "placement", Instance: "p", Namespace: "ns", ManagedBy: "placement-operator"}
	for _, tt := range []struct {
		name                  string
		liveNarrowed, desired bool
		want                  bool
	}{
		{name: "live narrowed, desired wide", liveNarrowed: true, desired: false, want: true},
		{name: "live wide, desired wide", liveNarrowed: false, desired: false, want: false},
		{name: "live wide, desired narrowed", liveNarrowed: false, desired: true, want: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			live := workload.Service(id, 8778, tt.liveNarrowed)
			live.Spec.ClusterIP, live.Spec.ClusterIPs = "10.0.0.7", []string{"10.0.0.7"}
			desired := workload.Service(id, 8778, tt.desired)
			keepService(live, desired)
			want := workload.Service(id, 8778, tt.want).Spec.Selector
			if diff := cmp.Diff(want, desired.Spec.Selector); diff != "" {
				t.Errorf("selector (-want +got):\n%s", diff)
			}
			if desired.Spec.ClusterIP != "10.0.0.7" || len(desired.Spec.ClusterIPs) != 1 {
				t.Errorf("cluster IPs %q %v, want the live ones", desired.Spec.ClusterIP, desired.Spec.ClusterIPs)
			}
		})
	}
}
