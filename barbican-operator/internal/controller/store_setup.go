package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/framework/watch"
)

// SetupWithManager registers the store controller; the Barbican
// controller's setup has registered the indexes it uses. It watches the
// parent Barbican and its Deployment (the store landing in the Deployment
// wakes ConfigProjected), the Secrets the stores read, and, when the kind
// is served, the OpenBaoCluster a managed store names (its Available
// condition unblocks a waiting store), all without a generation filter. On
// every target cluster the resolver engages, the Deployment and the
// Secrets there are watched too (attach.Watches.OnEngage).
func (r *StoreReconciler) SetupWithManager(mgr ctrl.Manager, opts managerconfig.ControllerOptions) error {
	w := parents(r.Client).Watches(render.ManagedBy)
	b := attach.For(mgr, "barbicansecretstore", &barbicanv1.BarbicanSecretStore{})
	served, err := targetcluster.KindServed(mgr.GetRESTMapper(), InstanceGVK)
	if err != nil {
		return err
	}
	if served {
		instance := &unstructured.Unstructured{}
		instance.SetGroupVersionKind(InstanceGVK)
		b = b.Watches(instance, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
			return w.List(ctx, o.GetNamespace(), client.MatchingFields{IndexInstanceRef: o.GetName()})
		}), builder.WithPredicates(watch.DropResyncs()))
	}
	if err := w.Complete(b.WithOptions(opts.Controller()), &barbicanv1.Barbican{}, r, r.Resolver); err != nil {
		return fmt.Errorf("building barbicansecretstore controller: %w", err)
	}
	return nil
}
