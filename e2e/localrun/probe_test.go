package localrun

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A probe change that fails while the operator's webhook is down is
// retried until it lands; it stops at NotFound, once it is no longer
// wanted, and at Stop.
func TestPersistRetriesUntilTheChangeLands(t *testing.T) {
	r := &Runner{}
	pr := &process{}
	down := errors.New(`failed calling webhook "mplacement.openstack.c5c3.io": connection refused`)
	calls := 0
	r.persist(context.Background(), pr, "test", func() bool { return true }, func(context.Context, *process) error {
		calls++
		if calls < 3 {
			return down
		}
		return nil
	})
	if calls != 3 {
		t.Fatalf("change ran %d times, want 3 (two refusals, then success)", calls)
	}

	calls = 0
	r.persist(context.Background(), pr, "test", func() bool { return true }, func(context.Context, *process) error {
		calls++
		return apierrors.NewNotFound(schema.GroupResource{Resource: "placements"}, "gone")
	})
	if calls != 1 {
		t.Errorf("NotFound retried: %d calls", calls)
	}

	calls = 0
	wanted := true
	r.persist(context.Background(), pr, "test", func() bool { return wanted }, func(context.Context, *process) error {
		calls++
		wanted = calls < 2
		return down
	})
	if calls != 2 {
		t.Errorf("retried after the change was no longer wanted: %d calls", calls)
	}

	r.Stop()
	calls = 0
	r.persist(context.Background(), pr, "test", func() bool { return true }, func(context.Context, *process) error {
		calls++
		return down
	})
	if calls != 1 {
		t.Errorf("retried after Stop: %d calls", calls)
	}
}
