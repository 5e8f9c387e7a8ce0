package apply

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Immutable says why an update cannot turn live into desired (a changed
// Deployment selector, say), or "" when it can.
type Immutable[T client.Object] func(live, desired T) string

// EnsureReplacing is Ensure for a kind with immutable fields. When
// immutable says an update cannot reach desired, it deletes the owned live
// object instead, dependents (a Deployment's ReplicaSets and pods) in the
// background, so that the next pass creates it anew, and returns why; for
// such an object already terminating (a foreground deletion, a finalizer)
// it returns why without deleting again, and the caller waits.
func EnsureReplacing[T client.Object](ctx context.Context, c client.Client, o Owner, desired T, keep Preserve[T], immutable Immutable[T]) (string, error) {
	_, replacing, err := ensure(ctx, c, o, desired, keep, immutable)
	return replacing, err
}

// replace deletes live, which an update cannot turn into what is desired.
func replace(ctx context.Context, c client.Client, live client.Object, why string) (string, error) {
	if !live.GetDeletionTimestamp().IsZero() {
		return why + " (deletion in progress)", nil
	}
	uid := live.GetUID()
	err := c.Delete(ctx, live, client.Preconditions{UID: &uid}, client.PropagationPolicy(metav1.DeletePropagationBackground))
	if err != nil && !apierrors.IsNotFound(err) {
		return "", fmt.Errorf("deleting %T %s to recreate it (%s): %w", live, live.GetName(), why, err)
	}
	return why, nil
}
