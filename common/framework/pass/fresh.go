package pass

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StaleRequeue is how soon a pass skipped over a stale cached CR retries.
// The CR's own watch drops status-only updates, so the retry, not the
// informer's event, brings the next pass.
const StaleRequeue = 50 * time.Millisecond

// StaleWindow bounds how long passes wait for the cache to show a write:
// past it (a watch that is down, say) the pass runs on what it has.
const StaleWindow = 10 * time.Second

// Freshness remembers the resourceVersion of this process's last write to
// each CR (finalizers, status). A pass that reads an older copy from the
// informer cache, which has not caught up with that write yet, is skipped:
// on stale status it would repeat events and transitions already made and
// lose its status write to a conflict that goes through the error backoff.
// Resource versions are compared as the integers the API server promises
// (KEP-5504); one that does not parse never counts as stale. The zero value
// is ready; a nil *Freshness tracks nothing.
type Freshness struct {
	mu      sync.Mutex
	written map[client.ObjectKey]write
}

type write struct {
	version string
	at      time.Time
}

// Wrote records obj's resourceVersion after a successful write.
func (f *Freshness) Wrote(obj client.Object) {
	if f == nil || obj.GetResourceVersion() == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.written == nil {
		f.written = map[client.ObjectKey]write{}
	}
	f.written[client.ObjectKeyFromObject(obj)] = write{version: obj.GetResourceVersion(), at: time.Now()}
}

// Stale reports whether obj is older than the last write recorded for it,
// made less than StaleWindow ago. Once a copy at least as new is seen, or
// the window has passed, the record is dropped.
func (f *Freshness) Stale(obj client.Object) bool {
	if f == nil {
		return false
	}
	key := client.ObjectKeyFromObject(obj)
	f.mu.Lock()
	defer f.mu.Unlock()
	written, ok := f.written[key]
	if !ok {
		return false
	}
	cmp, err := resourceversion.CompareResourceVersion(obj.GetResourceVersion(), written.version)
	if err == nil && cmp < 0 && time.Since(written.at) < StaleWindow {
		return true
	}
	delete(f.written, key)
	return false
}

// Forget drops the record of a CR that is gone.
func (f *Freshness) Forget(key client.ObjectKey) {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.written, key)
}
