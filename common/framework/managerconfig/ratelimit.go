package managerconfig

import (
	"time"

	"golang.org/x/time/rate"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Error backoff of the service controllers (common behaviour §10).
const (
	// BackoffBase is the first per-item delay after a failed pass; it doubles
	// with each further failure of the same item.
	BackoffBase = 5 * time.Millisecond
	// BackoffCap bounds the per-item delay: a Placement failing for a while
	// is retried every 30 s, not every 1000 s as controller-runtime's default.
	BackoffCap = 30 * time.Second
	// RetryQPS and RetryBurst bound the retries of all items together.
	RetryQPS   = 10
	RetryBurst = 100
)

// RateLimiter is the workqueue rate limiter of a service controller: per
// item, exponential from BackoffBase doubling up to BackoffCap, reset when a
// pass succeeds; overall, a token bucket of RetryQPS with RetryBurst. The
// larger of the two delays applies. Set it as controller.Options.RateLimiter:
// left nil, controller-runtime caps the per-item delay at 1000 s.
func RateLimiter[T comparable]() workqueue.TypedRateLimiter[T] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[T](BackoffBase, BackoffCap),
		&workqueue.TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(RetryQPS), RetryBurst)},
	)
}

// ControllerOptions are the flags every service controller takes.
type ControllerOptions struct {
	MaxConcurrentReconciles int
}

// Controller bounds the error backoff at 30 s (RateLimiter) instead of
// controller-runtime's 1000 s. One workqueue serves the management cluster's
// watches and every target cluster's (watch.Remote adds those to the same
// controller), so the limiter covers both.
func (o ControllerOptions) Controller() controller.Options {
	return controller.Options{
		MaxConcurrentReconciles: o.MaxConcurrentReconciles,
		RateLimiter:             RateLimiter[reconcile.Request](),
	}
}
