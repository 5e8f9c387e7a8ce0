package managerconfig

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A Placement that keeps failing is retried at most every 30 s (common
// behaviour §10), not at controller-runtime's default cap of 1000 s.
func TestControllerBackoffCappedAt30s(t *testing.T) {
	opts := ControllerOptions{MaxConcurrentReconciles: 2}.Controller()
	if opts.MaxConcurrentReconciles != 2 {
		t.Errorf("MaxConcurrentReconciles = %d, want 2", opts.MaxConcurrentReconciles)
	}
	if opts.RateLimiter == nil {
		t.Fatal("no rate limiter: controller-runtime's default caps the backoff at 1000 s")
	}
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: "placement"}}
	if got := opts.RateLimiter.When(req); got != 5*time.Millisecond {
		t.Errorf("first retry after %v, want 5ms", got)
	}
	var last time.Duration
	for range 30 {
		last = opts.RateLimiter.When(req)
	}
	if last != 30*time.Second {
		t.Errorf("retry after 31 failures in %v, want the 30 s cap", last)
	}
}
