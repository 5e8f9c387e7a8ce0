// Package pass is the status skeleton of one reconcile pass: resolve the
// target cluster, hand deletion to the finalizer flow, ensure the finalizers,
// run the pipeline and persist status once, skipping a write that changes nothing.
package pass

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// TargetUnavailableRequeue is the flat requeue while a target cluster does not resolve.
const TargetUnavailableRequeue = 15 * time.Second

// Object is a service CR the skeleton can drive.
type Object interface {
	client.Object
	// ServiceStatus is the status every service CR shares (conditions,
	// observedGeneration, release tracking).
	ServiceStatus() *serviceapi.ServiceStatus
	// StatusSnapshot returns a deep copy of the whole status, compared before writing.
	StatusSnapshot() any
}

// Hooks are the operator-specific parts of a pass.
type Hooks[T Object] struct {
	// Finalizers are added, in order, before the first step runs.
	Finalizers func(T) []string
	// Resolve returns the cluster that receives the CR's children.
	Resolve func(context.Context, T) (targetcluster.Target, error)
	// Delete runs the finalizer flow of a CR in Terminating.
	Delete func(context.Context, T) (ctrl.Result, error)
	// Run runs the step table against the resolved target.
	Run func(context.Context, T, targetcluster.Target) (pipeline.Outcome, error)
	// SubConditions are the conditions the Ready aggregate is derived from.
	SubConditions []string
	// Fresh, when set, skips passes over a cached copy older than the
	// pass's own last write (see Freshness). The reconciler calls
	// Fresh.Forget when its CR is not found, or the record stays.
	Fresh *Freshness
}

// Run runs one reconcile pass over a CR already read from the API.
func Run[T Object](ctx context.Context, c client.Client, obj T, h Hooks[T]) (ctrl.Result, error) {
	if h.Fresh.Stale(obj) {
		return ctrl.Result{RequeueAfter: StaleRequeue}, nil
	}
	// Every write below (finalizers, status) leaves obj at the new version.
	read := obj.GetResourceVersion()
	defer func() {
		if obj.GetResourceVersion() != read {
			h.Fresh.Wrote(obj)
		}
	}()
	if !obj.GetDeletionTimestamp().IsZero() {
		return h.Delete(ctx, obj)
	}
	before := obj.StatusSnapshot()
	target, err := h.Resolve(ctx, obj)
	if err != nil {
		conditions.False(&obj.ServiceStatus().Conditions, obj.GetGeneration(), conditions.TypeSecretsReady,
			conditions.ReasonTargetClusterUnavailable, err.Error())
		return ctrl.Result{RequeueAfter: TargetUnavailableRequeue}, PersistStatus(ctx, c, obj, before, h.SubConditions)
	}
	if err := ensureFinalizers(ctx, c, obj, h.Finalizers(obj)); err != nil {
		return ctrl.Result{}, err
	}
	out, runErr := h.Run(ctx, obj, target)
	if err := PersistStatus(ctx, c, obj, before, h.SubConditions); err != nil {
		return ctrl.Result{}, errors.Join(runErr, err)
	}
	if runErr != nil {
		return ctrl.Result{}, runErr
	}
	return ctrl.Result{RequeueAfter: out.RequeueAfter}, nil
}

// ensureFinalizers adds the missing finalizers in one Update and goes on with
// the pass: the Update refreshes obj, so no extra pass is needed.
func ensureFinalizers(ctx context.Context, c client.Client, obj client.Object, names []string) error {
	changed := false
	for _, f := range names {
		changed = controllerutil.AddFinalizer(obj, f) || changed
	}
	if !changed {
		return nil
	}
	if err := c.Update(ctx, obj); err != nil {
		return fmt.Errorf("adding finalizers: %w", err)
	}
	return nil
}

// PersistStatus derives Ready, stamps observedGeneration and writes status
// unless it is semantically equal to before.
func PersistStatus(ctx context.Context, c client.Client, obj Object, before any, subConditions []string) error {
	st := obj.ServiceStatus()
	conditions.Aggregate(&st.Conditions, obj.GetGeneration(), subConditions)
	st.ObservedGeneration = obj.GetGeneration()
	if equality.Semantic.DeepEqual(before, obj.StatusSnapshot()) {
		return nil
	}
	err := c.Status().Update(ctx, obj)
	// Status is this controller's alone, and it records what the pass did
	// (a phase entered, a Job created, an event recorded). A conflict
	// means someone else changed the CR's metadata or spec meanwhile (an
	// annotation, an edit): the status is written over the newer version
	// rather than lost, or the next pass would repeat the transitions and
	// their events. A spec change shows in observedGeneration, which stays
	// at the generation this pass acted on, and gets its own pass.
	for try := 0; apierrors.IsConflict(err) && try < conflictRetries; try++ {
		fresh := obj.DeepCopyObject().(client.Object)
		if err = c.Get(ctx, client.ObjectKeyFromObject(obj), fresh); err != nil {
			break
		}
		obj.SetResourceVersion(fresh.GetResourceVersion())
		err = c.Status().Update(ctx, obj)
	}
	if err != nil {
		return fmt.Errorf("updating status: %w", err)
	}
	return nil
}

// conflictRetries bounds the re-writes of a status that met a conflict.
const conflictRetries = 3
