package attach

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/watch"
	"github.com/c5c3/openstack-operators/common/workload"
)

// Watches maps the objects a child controller watches to the children:
// the parent CR, the parent's Deployment (its volumes carry the
// projection) and the Secrets the children read, each through a field index
// the parent's controller registered.
type Watches struct {
	// Client lists the children from the manager's cache.
	Client client.Reader
	// NewList returns an empty list of the child kind.
	NewList func() client.ObjectList
	// ParentIndex indexes the children by their parent's name; SecretIndex
	// by the Secrets they read.
	ParentIndex, SecretIndex string
	// ManagedBy is the managed-by label of the parent's Deployment.
	ManagedBy string
}

// Add adds the watches on parent, its Deployment and Secrets (metadata only)
// to b, all without a generation filter (status flips and projections are
// the signals), dropping resyncs only.
func (w Watches) Add(b *builder.Builder, parent client.Object) *builder.Builder {
	drop := builder.WithPredicates(watch.DropResyncs())
	return b.
		Watches(parent, handler.EnqueueRequestsFromMapFunc(w.ByParent), drop).
		Watches(&appsv1.Deployment{}, handler.EnqueueRequestsFromMapFunc(w.ByDeployment), drop).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(w.BySecret), drop)
}

// ByParent maps a parent to its children.
func (w Watches) ByParent(ctx context.Context, o client.Object) []reconcile.Request {
	return w.List(ctx, o.GetNamespace(), client.MatchingFields{w.ParentIndex: o.GetName()})
}

// ByDeployment maps a parent's Deployment to the parent's children.
func (w Watches) ByDeployment(ctx context.Context, o client.Object) []reconcile.Request {
	l := o.GetLabels()
	if l[workload.ManagedByLabel] != w.ManagedBy {
		return nil
	}
	return w.List(ctx, o.GetNamespace(), client.MatchingFields{w.ParentIndex: l[workload.InstanceLabel]})
}

// BySecret maps a Secret to the children that read it.
func (w Watches) BySecret(ctx context.Context, o client.Object) []reconcile.Request {
	return w.List(ctx, o.GetNamespace(), client.MatchingFields{w.SecretIndex: o.GetName()})
}

// List lists the children in namespace matching sel as requests.
func (w Watches) List(ctx context.Context, namespace string, sel client.MatchingFields) []reconcile.Request {
	list := w.NewList()
	if err := w.Client.List(ctx, list, client.InNamespace(namespace), sel); err != nil {
		log.FromContext(ctx).Error(err, "listing attached children for a watch event")
		return nil
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		log.FromContext(ctx).Error(err, "reading attached children for a watch event")
		return nil
	}
	out := make([]reconcile.Request, 0, len(items))
	for _, it := range items {
		if o, ok := it.(client.Object); ok {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(o)})
		}
	}
	return out
}
