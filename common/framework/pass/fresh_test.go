package pass

import (
	"context"
	"testing"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func TestFreshness(t *testing.T) {
	at := func(rv string) *testenv.CR {
		cr := newCR()
		cr.ResourceVersion = rv
		return cr
	}
	var f Freshness
	if f.Stale(at("5")) {
		t.Error("stale without a recorded write")
	}
	f.Wrote(at("10"))
	for _, rv := range []string{"9", "2"} {
		if !f.Stale(at(rv)) {
			t.Errorf("copy at %s not stale after a write at 10", rv)
		}
	}
	if f.Stale(at("11")) {
		t.Error("a newer copy is stale")
	}
	if f.recorded() != 0 {
		t.Error("record kept after a newer copy was seen")
	}
	f.Wrote(at("10"))
	if f.Stale(at("not-a-number")) || f.recorded() != 0 {
		t.Error("an unparseable resourceVersion counted as stale, or its record was kept")
	}
	f.Wrote(at("10"))
	f.Forget(client.ObjectKeyFromObject(at("10")))
	if f.Stale(at("3")) {
		t.Error("stale after Forget")
	}
	f.Wrote(at("10"))
	key := client.ObjectKeyFromObject(at("10"))
	f.written[key] = write{version: "10", at: time.Now().Add(-StaleWindow)}
	if f.Stale(at("3")) || f.recorded() != 0 {
		t.Error("a write older than StaleWindow still holds passes back")
	}
	var none *Freshness
	none.Wrote(at("10"))
	if none.Stale(at("1")) {
		t.Error("a nil Freshness tracks writes")
	}
}

// A pass over a cached copy older than the pass's own last write neither
// runs nor writes; once the cache has caught up, the pass runs again.
func TestPassSkipsStaleCopy_FakeClient(t *testing.T) {
	c, w := newClient(t, nil, nil, newCR())
	k := &calls{}
	fresh := &Freshness{}
	h := hooks(k, nil, nil)
	h.Fresh = fresh
	cached := stored(t, c) // what an informer would hand out before the write
	if _, err := Run(context.Background(), c, stored(t, c), h); err != nil {
		t.Fatal(err)
	}
	if w.update != 1 || w.status != 1 || fresh.recorded() != 1 {
		t.Fatalf("first pass: %d updates, %d status writes, %d recorded, want 1, 1, 1", w.update, w.status, fresh.recorded())
	}
	ran := k.run
	got, err := Run(context.Background(), c, cached, h)
	if err != nil || got != (ctrl.Result{RequeueAfter: StaleRequeue}) {
		t.Fatalf("pass over the stale copy = %+v, %v; want a requeue after %s", got, err, StaleRequeue)
	}
	if k.run != ran || w.update != 1 || w.status != 1 {
		t.Errorf("the stale pass ran the pipeline or wrote: run %d→%d, updates %d, status %d", ran, k.run, w.update, w.status)
	}
	if _, err := Run(context.Background(), c, stored(t, c), h); err != nil {
		t.Fatal(err)
	}
	if k.run != ran+1 || fresh.recorded() != 0 {
		t.Errorf("the pass over the current copy: run %d→%d, %d recorded; want it run and the record dropped", ran, k.run, fresh.recorded())
	}
}

// recorded is the number of CRs with a write not yet seen in the cache.
func (f *Freshness) recorded() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.written)
}
