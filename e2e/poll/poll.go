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

// Progress bounds how long Until goes on while f reports progress: that many
// timeouts in all.
const Progress = 4

// Until calls f until it returns nil, failing t with f's last error once
// timeout has passed without progress. Progress is a change of f's error:
// a wait that names what it sees (a condition's reason and message, a Job's
// state) gets a fresh timeout each time that changes, so a busy machine
// that is slow but moving does not fail it, up to Progress timeouts in all.
func Until(t testing.TB, timeout time.Duration, f func() error) {
	t.Helper()
	start := time.Now()
	deadline, hard := start.Add(timeout), start.Add(Progress*timeout)
	last := ""
	for {
		err := f()
		if err == nil {
			return
		}
		now := time.Now()
		if msg := err.Error(); msg != last {
			last = msg
			deadline = now.Add(timeout)
			if deadline.After(hard) {
				deadline = hard
			}
		}
		if now.After(deadline) {
			t.Fatalf("timed out after %s (no progress for %s): %v", now.Sub(start).Round(time.Second), timeout, err)
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
