package standins

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// StatusReporter plays a built-in controller the cluster lacks, for one
// kind: an object not yet in its final state gets the status that
// controller writes at the end, as a status-only merge patch. Objects being
// deleted or already reported (Settled) are left alone, so a settled pass
// writes nothing.
type StatusReporter[T client.Object] struct {
	Client client.Client
	// Kind names the kind in logs and the controller name.
	Kind string
	// New returns an empty object of the kind.
	New func() T
	// Settled reports objects to leave alone.
	Settled func(T) bool
	// Report writes the final status into the object.
	Report func(T, metav1.Time)
	// Done is the log line of a report.
	Done string
}

// Reconcile reports one object.
func (r *StatusReporter[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.GetDeletionTimestamp().IsZero() || r.Settled(obj) {
		return ctrl.Result{}, nil
	}
	base := obj.DeepCopyObject().(client.Object)
	r.Report(obj, metav1.Now())
	if err := r.Client.Status().Patch(ctx, obj, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, fmt.Errorf("%s %s: %w", r.Done, req.NamespacedName, err)
	}
	log.FromContext(ctx).Info(r.Done, "generation", obj.GetGeneration())
	return ctrl.Result{}, nil
}

// SetupWithManager watches the kind.
func (r *StatusReporter[T]) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(r.New()).Named(controllerName(r.Kind)).Complete(r)
}
