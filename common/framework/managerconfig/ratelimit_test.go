package managerconfig

import (
	"fmt"
	"testing"
	"time"
)

// Per item: 5 ms doubling, capped at 30 s; a success (Forget) starts over.
func TestRateLimiterPerItemBackoff(t *testing.T) {
	rl := RateLimiter[string]()
	want := BackoffBase
	for i := 0; i < 40; i++ {
		if got := rl.When("a"); got != want {
			t.Fatalf("failure %d: delay %v, want %v", i+1, got, want)
		}
		want = min(2*want, BackoffCap)
	}
	if got := rl.When("a"); got != 30*time.Second {
		t.Errorf("delay after many failures %v, want the 30 s cap", got)
	}
	if n := rl.NumRequeues("a"); n != 41 {
		t.Errorf("NumRequeues = %d, want 41", n)
	}
	rl.Forget("a")
	if got := rl.When("a"); got != BackoffBase {
		t.Errorf("delay after Forget %v, want %v", got, BackoffBase)
	}
	if got := rl.When("b"); got != BackoffBase {
		t.Errorf("another item's first delay %v, want %v", got, BackoffBase)
	}
}

// Overall: a burst of 100 retries passes, the next waits for the 10 qps bucket.
func TestRateLimiterOverallBucket(t *testing.T) {
	rl := RateLimiter[string]()
	start := time.Now()
	for i := 0; i < RetryBurst; i++ {
		if got := rl.When(fmt.Sprint(i)); got != BackoffBase {
			t.Fatalf("retry %d of the burst: delay %v, want %v", i+1, got, BackoffBase)
		}
	}
	// The bucket refills while the loop runs (slowly on a loaded machine):
	// the wait is one token's 100 ms less the time spent since the start.
	got := rl.When("one-too-many")
	elapsed := time.Since(start)
	if got > 100*time.Millisecond || got < 100*time.Millisecond-elapsed-time.Millisecond {
		t.Errorf("retry past the burst after %v: delay %v, want 100 ms (10 qps) less the elapsed time", elapsed, got)
	}
}
