package secretcache

import (
	"errors"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

// secretMeta is an empty metadata-only Secret.
func secretMeta() *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(secretGVK)
	return m
}

// informer is the Secret metadata informer of a Cache: a handler added to it
// gets the events of every namespace informer, running or started later.
// Unlike a shared informer's, a handler may be called from several
// goroutines at once (one per namespace informer, and the caller's for the
// adds replayed when it is added), and a replayed add may follow a newer
// event of the same Secret: handlers must be safe for concurrent use and
// order-insensitive, as controller-runtime's enqueueing handlers,
// predicates and map functions are. A handler must not read Secret
// metadata through the Cache in its own namespace during that namespace
// informer's first list (the read waits for the list, which waits for the
// handler).
type informer struct{ c *Cache }

var _ cache.Informer = &informer{}

// registration is a handler added to the informer.
type registration struct {
	c       *Cache
	handler toolscache.ResourceEventHandler
}

// dispatcher is the one handler of every namespace informer: it passes each
// event to every registered handler.
type dispatcher struct{ c *Cache }

func (d dispatcher) handlers() []*registration {
	d.c.mu.Lock()
	defer d.c.mu.Unlock()
	return slices.Clone(d.c.regs)
}

func (d dispatcher) OnAdd(obj any, initial bool) {
	for _, r := range d.handlers() {
		r.handler.OnAdd(obj, initial)
	}
}

func (d dispatcher) OnUpdate(old, obj any) {
	for _, r := range d.handlers() {
		r.handler.OnUpdate(old, obj)
	}
}

func (d dispatcher) OnDelete(obj any) {
	d.c.forget(obj)
	for _, r := range d.handlers() {
		r.handler.OnDelete(obj)
	}
}

func (i *informer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandlerWithOptions(h, toolscache.HandlerOptions{})
}

func (i *informer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, period time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.AddEventHandlerWithOptions(h, toolscache.HandlerOptions{ResyncPeriod: &period})
}

// AddEventHandlerWithOptions adds h for the events of every namespace
// informer, and gives it at once, as initial adds, what the running ones
// hold. The namespace informers do not resync (their watches drop resyncs),
// so a requested resync period is ignored.
func (i *informer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, _ toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	c := i.c
	c.mu.Lock()
	r := &registration{c: c, handler: h}
	c.regs = append(c.regs, r)
	var held []any
	for _, s := range c.shards {
		held = append(held, s.store.List()...)
	}
	c.mu.Unlock()
	// A namespace informer puts an object in its store before it passes
	// the event on: what the stores hold now is every object whose event
	// h may have missed, and every later event reaches h through the
	// dispatcher (an object in both arrives twice, harmless for a handler
	// that enqueues).
	for _, obj := range held {
		h.OnAdd(obj, true)
	}
	return r, nil
}

// RemoveEventHandler removes a handler this informer added.
func (i *informer) RemoveEventHandler(handle toolscache.ResourceEventHandlerRegistration) error {
	r, ok := handle.(*registration)
	if !ok {
		return errors.New("secretcache: not a registration of this informer")
	}
	c := i.c
	c.mu.Lock()
	defer c.mu.Unlock()
	c.regs = slices.DeleteFunc(c.regs, func(x *registration) bool { return x == r })
	return nil
}

// AddIndexers refuses: no namespace informer is indexed.
func (i *informer) AddIndexers(toolscache.Indexers) error {
	return errors.New("secretcache: no indexers on Secret metadata")
}

// HasSynced reports whether every running namespace informer has synced
// and passed its initial list on.
func (i *informer) HasSynced() bool { return i.c.handlersSynced() }

// HasSyncedChecker completes once the namespace informers running now have
// synced (or stopped).
func (i *informer) HasSyncedChecker() toolscache.DoneChecker { return i.c.syncedChecker() }

// IsStopped is false: the informer lives as long as its cache.
func (i *informer) IsStopped() bool { return false }

// HasSynced reports whether every running namespace informer has passed its
// initial list on.
func (r *registration) HasSynced() bool { return r.c.handlersSynced() }

// HasSyncedChecker: see informer.HasSyncedChecker.
func (r *registration) HasSyncedChecker() toolscache.DoneChecker { return r.c.syncedChecker() }

// handlersSynced reports whether every namespace informer the tracked
// objects need runs and has passed its initial list to the dispatcher.
func (c *Cache) handlersSynced() bool {
	if !c.trackersSynced() {
		return false
	}
	for _, s := range c.running() {
		if !s.controller.HasSynced() {
			return false
		}
	}
	return true
}

// syncedChecker completes when each namespace informer running now has
// passed its initial list on, or stopped.
func (c *Cache) syncedChecker() toolscache.DoneChecker {
	shards := c.running()
	names := make([]string, 0, len(shards))
	for _, s := range shards {
		names = append(names, s.controller.HasSyncedChecker().Name())
	}
	d := done{name: "secret metadata [" + strings.Join(names, ", ") + "]", ch: make(chan struct{})}
	go func() {
		defer close(d.ch)
		for _, s := range shards {
			select {
			case <-s.controller.HasSyncedChecker().Done():
			case <-s.done:
			}
		}
	}()
	return d
}

// done is a DoneChecker.
type done struct {
	name string
	ch   chan struct{}
}

func (d done) Name() string          { return d.name }
func (d done) Done() <-chan struct{} { return d.ch }
