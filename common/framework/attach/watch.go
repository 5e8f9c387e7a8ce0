package attach

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/framework/watch"
	"github.com/c5c3/openstack-operators/common/lib/workload"
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
	// TargetCluster is the target cluster of the child's parent ("" for
	// the management cluster): a target cluster's events reach only the
	// children whose parent names that cluster (OnEngage).
	TargetCluster func(ctx context.Context, child client.ObjectKey) string
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

// Complete adds the watches (Add) to b, builds the child controller do and
// has resolver (nil: no target clusters) add the target-cluster watches
// (OnEngage) on every cluster it engages.
func (w Watches) Complete(b *builder.Builder, parent client.Object, do reconcile.Reconciler, resolver *targetcluster.Resolver) error {
	c, err := w.Add(b, parent).Build(do)
	if err != nil {
		return err
	}
	if resolver != nil {
		resolver.AlsoOnEngage(w.OnEngage(c))
	}
	return nil
}

// OnEngage is the resolver hook (targetcluster.Resolver.AlsoOnEngage) that
// adds to c, on a newly engaged target cluster, the watches of Add that
// live there: the parents' Deployments and the Secrets the children read
// (metadata only), each reaching only the children whose parent targets
// that cluster, dropping resyncs.
func (w Watches) OnEngage(c controller.Controller) func(string, cluster.Cluster) error {
	return func(name string, cl cluster.Cluster) error {
		drop := watch.DropResyncs()
		for _, src := range []source.Source{
			source.Kind(cl.GetCache(), client.Object(&appsv1.Deployment{}), handler.EnqueueRequestsFromMapFunc(w.On(name, w.ByDeployment)), drop),
			source.Kind(cl.GetCache(), client.Object(watch.SecretMetadata()), handler.EnqueueRequestsFromMapFunc(w.On(name, w.BySecret)), drop),
		} {
			if err := c.Watch(src); err != nil {
				return err
			}
		}
		return nil
	}
}

// On narrows m to the children whose parent targets cluster.
func (w Watches) On(cluster string, m handler.MapFunc) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		reqs := m(ctx, o)
		out := reqs[:0]
		for _, r := range reqs {
			if w.TargetCluster(ctx, r.NamespacedName) == cluster {
				out = append(out, r)
			}
		}
		return out
	}
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
