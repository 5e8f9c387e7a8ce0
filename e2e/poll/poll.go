// Package poll waits for a condition in the e2e and conformance suites.
package poll

import (
	"context"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Interval is how often Until checks.
const Interval = 250 * time.Millisecond

// Until calls f until it returns nil, failing t with f's last error once
// timeout has passed.
func Until(t testing.TB, timeout time.Duration, f func() error) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s: %v", timeout, err)
		}
		time.Sleep(Interval)
	}
}

// Must fails t on a non-nil error.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Update reads obj afresh, applies change to it and writes it, retrying
// (on conflicts with other writers) until timeout.
func Update(t testing.TB, c client.Client, obj client.Object, timeout time.Duration, change func()) {
	t.Helper()
	Until(t, timeout, func() error {
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		change()
		return c.Update(context.Background(), obj)
	})
}
