package controller

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

func TestPlacementEvents(t *testing.T) {
	base := func() *placementv1.Placement {
		return &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Generation: 3, ResourceVersion: "10",
			Labels: map[string]string{"a": "b"}}}
	}
	with := func(f func(*placementv1.Placement)) *placementv1.Placement {
		p := base()
		p.ResourceVersion = "11"
		f(p)
		return p
	}
	same := base()
	tests := []struct {
		name     string
		old, new *placementv1.Placement
		want     bool
	}{
		{"periodic resync (one cached object as old and new)", same, same, true},
		{"relist over an unchanged Placement", base(), base(), true},
		{"status-only update", base(), with(func(p *placementv1.Placement) { p.Status.ObservedGeneration = 3 }), false},
		{"spec change", base(), with(func(p *placementv1.Placement) { p.Generation = 4 }), true},
		{"label change", base(), with(func(p *placementv1.Placement) { p.Labels["a"] = "c" }), true},
		{"annotation change", base(), with(func(p *placementv1.Placement) { p.Annotations = map[string]string{"x": "y"} }), true},
		{"entry into Terminating", base(), with(func(p *placementv1.Placement) { now := metav1.Now(); p.DeletionTimestamp = &now }), true},
		{"finalizer-only update", base(), with(func(p *placementv1.Placement) { p.Finalizers = []string{"f"} }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PlacementEvents().Update(event.UpdateEvent{ObjectOld: tt.old, ObjectNew: tt.new}); got != tt.want {
				t.Errorf("Update = %v, want %v", got, tt.want)
			}
		})
	}
	if !PlacementEvents().Create(event.CreateEvent{Object: base()}) || !PlacementEvents().Delete(event.DeleteEvent{Object: base()}) {
		t.Error("creates and deletes of Placements must pass")
	}
}
