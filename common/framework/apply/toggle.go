package apply

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Toggle ensures the object build returns when wanted, and otherwise deletes
// the owned object named like absent: the lifecycle of an optional child
// such as an autoscaler or a NetworkPolicy.
func Toggle[T client.Object](ctx context.Context, c client.Client, o Owner, wanted bool, absent T, build func() (T, error)) error {
	if !wanted {
		return Absent(ctx, c, o, absent)
	}
	desired, err := build()
	if err != nil {
		return err
	}
	_, err = Ensure(ctx, c, o, desired, nil)
	return err
}
