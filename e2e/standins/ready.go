package standins

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
	return r.reporter().Reconcile(ctx, req)
}

// SetupWithManager watches the kind.
func (r *ReadyMarker[T]) SetupWithManager(mgr ctrl.Manager) error {
	return r.reporter().SetupWithManager(mgr)
}

// reporter is the marker as a StatusReporter: settled once Ready is True.
func (r *ReadyMarker[T]) reporter() *StatusReporter[T] {
	return &StatusReporter[T]{
		Client: r.Client, Kind: r.Kind, New: r.New, Done: "marked Ready",
		Settled: func(o T) bool { return meta.IsStatusConditionTrue(*r.Conditions(o), ConditionReady) },
		Report: func(o T, _ metav1.Time) {
			meta.SetStatusCondition(r.Conditions(o), metav1.Condition{
				Type: ConditionReady, Status: metav1.ConditionTrue, Reason: r.Reason, Message: r.Message,
			})
		},
	}
}
