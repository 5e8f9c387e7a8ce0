package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Field indexes over Placements.
const (
	// IndexSecretRefs holds the union of the DB and service-user Secret names.
	IndexSecretRefs = "spec.secretRefs.name"
	// IndexClusterRef holds spec.database.clusterRef.name.
	IndexClusterRef = "spec.database.clusterRef.name"
	// IndexSecretStore holds "<kind>/<name>" of the effective secret store.
	IndexSecretStore = "spec.secretStoreRef"
)

func addIndexes(ctx context.Context, mgr ctrl.Manager) error {
	idx := mgr.GetFieldIndexer()
	if err := idx.IndexField(ctx, &placementv1.Placement{}, IndexSecretRefs, secretRefs); err != nil {
		return err
	}
	if err := idx.IndexField(ctx, &placementv1.Placement{}, IndexClusterRef, func(o client.Object) []string {
		if ref := o.(*placementv1.Placement).Spec.Database.ClusterRef; ref != nil {
			return []string{ref.Name}
		}
		return nil
	}); err != nil {
		return err
	}
	return idx.IndexField(ctx, &placementv1.Placement{}, IndexSecretStore, func(o client.Object) []string {
		s := shared.EffectiveSecretStore(o.(*placementv1.Placement).Spec.SecretStoreRef)
		return []string{s.Kind + "/" + s.Name}
	})
}

// secretRefs is the deduplicated union of the referenced Secret names.
func secretRefs(o client.Object) []string {
	p := o.(*placementv1.Placement)
	a, b := p.Spec.Database.SecretRef.Name, p.Spec.ServiceUser.SecretRef.Name
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// bySecret maps a Secret event to the Placements referencing it that target cluster.
func (r *PlacementReconciler) bySecret(cluster string) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		return r.lookup(ctx, cluster, client.InNamespace(o.GetNamespace()), client.MatchingFields{IndexSecretRefs: o.GetName()})
	}
}

// byMariaDB maps a MariaDB event to the Placements using that cluster.
func (r *PlacementReconciler) byMariaDB(cluster string) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		return r.lookup(ctx, cluster, client.InNamespace(o.GetNamespace()), client.MatchingFields{IndexClusterRef: o.GetName()})
	}
}

// byStore maps a ClusterSecretStore event to every Placement selecting it and
// a SecretStore event to the Placements of its namespace selecting it.
func (r *PlacementReconciler) byStore(cluster string) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		if o.GetNamespace() == "" {
			return r.lookup(ctx, cluster, client.MatchingFields{IndexSecretStore: shared.ClusterSecretStoreKind + "/" + o.GetName()})
		}
		return r.lookup(ctx, cluster, client.InNamespace(o.GetNamespace()),
			client.MatchingFields{IndexSecretStore: shared.SecretStoreKind + "/" + o.GetName()})
	}
}

// lookup lists Placements by index and keeps those whose children live on cluster.
func (r *PlacementReconciler) lookup(ctx context.Context, cluster string, opts ...client.ListOption) []reconcile.Request {
	var list placementv1.PlacementList
	if err := r.Client.List(ctx, &list, opts...); err != nil {
		log.FromContext(ctx).Error(err, "listing Placements for a watch event")
		return nil
	}
	var out []reconcile.Request
	for i := range list.Items {
		if targetName(&list.Items[i]) == cluster {
			out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: list.Items[i].Namespace, Name: list.Items[i].Name}})
		}
	}
	return out
}

func targetName(p *placementv1.Placement) string {
	if p.Spec.TargetClusterRef == nil {
		return ""
	}
	return p.Spec.TargetClusterRef.Name
}

// PlacementEvents is the predicate of the Placement watch: the changes
// SpecOrMetadataChanged passes, and the periodic resync, which every other
// watch drops (operator.DropResyncs), so a resync period costs one pass per
// Placement rather than one per watched kind.
func PlacementEvents() predicate.Predicate {
	return predicate.Or(SpecOrMetadataChanged(), operator.Resyncs())
}

// SpecOrMetadataChanged drops status-only updates: it passes generation,
// label and annotation changes, and entry into Terminating.
func SpecOrMetadataChanged() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		o, n := e.ObjectOld, e.ObjectNew
		return o.GetGeneration() != n.GetGeneration() ||
			!equalMaps(o.GetLabels(), n.GetLabels()) ||
			!equalMaps(o.GetAnnotations(), n.GetAnnotations()) ||
			o.GetDeletionTimestamp().IsZero() != n.GetDeletionTimestamp().IsZero()
	}}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
