package apply

import (
	"context"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Immutable says why an update cannot turn live into desired (a changed
// Deployment selector, say), or "" when it can.
type Immutable[T client.Object] func(live, desired T) string

// DeleteForRecreate deletes the owned live object when immutable says an
// update cannot reach desired, so that the next pass creates it anew, and
// returns why. Dependents (a Deployment's ReplicaSets and pods) go in the
// background. For such an object already terminating (a foreground
// deletion, a finalizer) it returns why without deleting again: the caller
// waits instead of updating it into an error. A missing or foreign object
// is left to Ensure, which creates or refuses.
func DeleteForRecreate[T client.Object](ctx context.Context, c client.Client, o Owner, desired T, immutable Immutable[T]) (string, error) {
	live := reflect.New(reflect.TypeOf(desired).Elem()).Interface().(T)
	if err := c.Get(ctx, client.ObjectKeyFromObject(desired), live); err != nil {
		return "", client.IgnoreNotFound(err)
	}
	if !o.Owns(live) {
		return "", nil
	}
	why := immutable(live, desired)
	if why == "" {
		return "", nil
	}
	if !live.GetDeletionTimestamp().IsZero() {
		return why + " (deletion in progress)", nil
	}
	uid := live.GetUID()
	err := c.Delete(ctx, live, client.Preconditions{UID: &uid}, client.PropagationPolicy(metav1.DeletePropagationBackground))
	if err != nil && !apierrors.IsNotFound(err) {
		return "", fmt.Errorf("deleting %T %s to recreate it (%s): %w", desired, desired.GetName(), why, err)
	}
	return why, nil
}
