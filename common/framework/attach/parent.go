package attach

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/framework/watch"
	"github.com/c5c3/openstack-operators/common/perf/secretcache"
)

// Parents maps attached children (and the Secrets they read) to their
// parent CRs: the parent controller's side of the wiring.
type Parents struct {
	// Client lists the children and reads the parents from the cache.
	Client client.Reader
	// NewList returns an empty list of the child kind; NewChild an empty
	// child; NewParent an empty parent.
	NewList   func() client.ObjectList
	NewChild  func() client.Object
	NewParent func() client.Object
	// ParentIndex indexes the children by ParentName; SecretIndex by
	// Secrets, the Secrets a child reads (nil for none).
	ParentIndex, SecretIndex string
	Secrets                  func(child client.Object) []string
	// ParentName is the name of the parent a child names (same namespace).
	ParentName func(child client.Object) string
	// TargetCluster is a parent's target cluster, "" for the management cluster.
	TargetCluster func(parent client.Object) string
}

// AddIndexes registers ParentIndex and SecretIndex over the child kind; the
// parent controller registers them, so it is set up before the child's.
func (p Parents) AddIndexes(ctx context.Context, idx client.FieldIndexer) error {
	if err := idx.IndexField(ctx, p.NewChild(), p.ParentIndex, func(o client.Object) []string {
		return []string{p.ParentName(o)}
	}); err != nil {
		return err
	}
	return secretcache.IndexReferencedSecrets(ctx, idx, p.NewChild(), p.SecretIndex, p.Secrets)
}

// ParentOf maps a child to its parent.
func (p Parents) ParentOf(_ context.Context, child client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: child.GetNamespace(), Name: p.ParentName(child)}}}
}

// ChildTarget is the target cluster of the child key's parent, "" when
// either is not in the cache (Watches.TargetCluster).
func (p Parents) ChildTarget(ctx context.Context, key client.ObjectKey) string {
	child := p.NewChild()
	if err := p.Client.Get(ctx, key, child); err != nil {
		return ""
	}
	parent := p.NewParent()
	if err := p.Client.Get(ctx, client.ObjectKey{Namespace: key.Namespace, Name: p.ParentName(child)}, parent); err != nil {
		return ""
	}
	return p.TargetCluster(parent)
}

// Watches is the child controller's side of the same wiring: the children
// listed through Client, indexed by parent (ParentIndex) and by Secret, the
// parent's Deployment labelled managedBy, and a child's target cluster.
func (p Parents) Watches(managedBy string) Watches {
	return Watches{Client: p.Client, NewList: p.NewList, ParentIndex: p.ParentIndex, SecretIndex: p.SecretIndex,
		ManagedBy: managedBy, TargetCluster: p.ChildTarget}
}

// For starts the builder of the child controller name for the kind child:
// only spec and metadata changes of a child wake it, never the status it
// writes itself.
func For(mgr ctrl.Manager, name string, child client.Object) *builder.Builder {
	return ctrl.NewControllerManagedBy(mgr).Named(name).For(child, builder.WithPredicates(watch.SpecOrMetadataChanged()))
}

// Watch adds the children's watch to b, without a generation filter: their
// status flips are what wake the parent's aggregation; only resyncs drop.
func (p Parents) Watch(b *builder.Builder, child client.Object) *builder.Builder {
	return b.Watches(child, handler.EnqueueRequestsFromMapFunc(p.ParentOf), builder.WithPredicates(watch.DropResyncs()))
}

// BySecret maps a Secret on cluster to the parents, targeting that cluster,
// of the children indexed under its name (watch.Mapper.AlsoBySecret).
func (p Parents) BySecret(ctx context.Context, cluster string, secret client.Object) []reconcile.Request {
	list := p.NewList()
	if err := p.Client.List(ctx, list, client.InNamespace(secret.GetNamespace()), client.MatchingFields{p.SecretIndex: secret.GetName()}); err != nil {
		log.FromContext(ctx).Error(err, "listing attached children for a Secret event")
		return nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil
	}
	var out []reconcile.Request
	for _, it := range items {
		child, ok := it.(client.Object)
		if !ok {
			continue
		}
		req := p.ParentOf(ctx, child)[0]
		parent := p.NewParent()
		if err := p.Client.Get(ctx, req.NamespacedName, parent); err == nil && p.TargetCluster(parent) == cluster {
			out = AddRequest(out, req)
		}
	}
	return out
}
