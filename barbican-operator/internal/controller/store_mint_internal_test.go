package controller

import (
	"testing"
	"time"
)

// The next pass comes at two thirds of the TTL after the mint, never sooner
// than the 30 s wait cadence, and after 15 minutes without a TTL.
func TestNextMint(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	p := &storePass{r: &StoreReconciler{Now: func() time.Time { return now }}}
	for _, tc := range []struct {
		minted time.Time
		ttl    time.Duration
		want   time.Duration
	}{
		{now, 90 * time.Second, 60 * time.Second},
		{now.Add(-20 * time.Second), 90 * time.Second, 40 * time.Second},
		{now, 30 * time.Second, requeueStoreWait},
		{now.Add(-time.Hour), time.Hour, requeueStoreWait},
		{now, 0, revalidateStore},
	} {
		if got := p.nextMint(held{mintedAt: tc.minted, ttl: tc.ttl}); got != tc.want {
			t.Errorf("minted %s ago, TTL %s: next pass in %s, want %s", now.Sub(tc.minted), tc.ttl, got, tc.want)
		}
	}
}
