package standins

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// ConditionReady is the condition type ESO and mariadb-operator report.
const ConditionReady = "Ready"

// ReadyMarker marks every object of one typed kind Ready, as the real
// controller would once its work succeeded. Objects already Ready are left
// alone, so a pass over settled objects writes nothing.
type ReadyMarker[T client.Object] struct {
	Client client.Client
	// Kind names the kind in logs and the controller name.
	Kind string
	// New returns an empty object of the kind.
	New func() T
	// Conditions points at the object's status.conditions.
	Conditions func(T) *[]metav1.Condition
	// Reason and Message are what the real controller writes with Ready=True.
	Reason, Message string
}

// Reconcile flips the Ready condition to True unless it already is.
func (r *ReadyMarker[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.GetDeletionTimestamp().IsZero() {
		return ctrl.Result{}, nil
	}
	conds := r.Conditions(obj)
	if meta.IsStatusConditionTrue(*conds, ConditionReady) {
		return ctrl.Result{}, nil
	}
	base := obj.DeepCopyObject().(client.Object)
	meta.SetStatusCondition(conds, metav1.Condition{
		Type: ConditionReady, Status: metav1.ConditionTrue, Reason: r.Reason, Message: r.Message,
	})
	// A merge patch of status only: the stand-in never competes with the
	// operators for spec or metadata.
	if err := r.Client.Status().Patch(ctx, obj, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, fmt.Errorf("marking %s %s Ready: %w", r.Kind, req.NamespacedName, err)
	}
	// The controller-runtime logger already names the kind and the object.
	log.FromContext(ctx).Info("marked Ready")
	return ctrl.Result{}, nil
}

// SetupWithManager watches the kind.
func (r *ReadyMarker[T]) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(r.New()).Named(controllerName(r.Kind)).Complete(r)
}
