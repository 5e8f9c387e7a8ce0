package controller

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/targetcluster"
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

// On a target cluster one Secret informer carries both the referenced
// credentials and the owned <cr>-db-connection: each maps to its Placement,
// and only to Placements that name that cluster.
func TestByRemoteSecret_FakeClient(t *testing.T) {
	placement := func(name, cluster string) *placementv1.Placement {
		p := &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "openstack"}}
		p.Spec.Database.SecretRef.Name = name + "-db"
		p.Spec.ServiceUser.SecretRef.Name = name + "-service-user"
		p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: cluster}
		return p
	}
	c := fake.NewClientBuilder().WithScheme(operator.NewScheme(placementv1.AddToScheme)).
		WithIndex(&placementv1.Placement{}, IndexSecretRefs, secretRefs).
		WithObjects(placement("placement", "edge-1"), placement("elsewhere", "edge-2")).Build()
	r := &PlacementReconciler{Client: c}
	secret := func(name string, labels map[string]string) *metav1.PartialObjectMetadata {
		m := secretMetadata()
		m.Name, m.Namespace, m.Labels = name, "openstack", labels
		return m
	}
	owned := targetcluster.OwnerLabels("Placement", "placement", "openstack")
	want := []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "openstack", Name: "placement"}}}
	tests := []struct {
		name   string
		secret *metav1.PartialObjectMetadata
		want   []reconcile.Request
	}{
		{"owned db-connection Secret", secret("placement-db-connection", owned), want},
		{"referenced credential Secret", secret("placement-db", nil), want},
		{"referenced and labelled: one request", secret("placement-db", owned), want},
		{"owned by a Placement on another cluster", secret("elsewhere-db-connection", targetcluster.OwnerLabels("Placement", "elsewhere", "openstack")), nil},
		{"owned by another kind", secret("placement-db-connection", targetcluster.OwnerLabels("Glance", "placement", "openstack")), nil},
		{"unrelated Secret", secret("unrelated", nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.byRemoteSecret("edge-1")(context.Background(), tt.secret); !slices.Equal(got, tt.want) {
				t.Errorf("requests %v, want %v", got, tt.want)
			}
		})
	}
}
