// Package echo keeps the watch events of the operator's own writes from
// costing a pass. A pass that creates or updates a child already knows the
// state it wrote; the event the child's informer then delivers (the echo)
// would only run a pass over what the writing pass saw, and in a burst of
// new CRs those echo passes are a large part of all passes. Writes records
// the resourceVersion each write of this process left an object at
// (Client), and Predicate drops an event whose object is at exactly that
// version: any other change (a controller's status update, a user's edit,
// a deletion) carries another version and passes.
//
// On a loopback or a fast network the echo often reaches the informer
// before the write's response reaches the writer: an event for an object
// with a write of this process in flight therefore waits (at most
// MaxWait) until that write has returned and been recorded.
//
// Not wired into the operators yet: the run that would enable it is still
// to be done (docs/decisions/caching.md).
package echo

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/resourceversion"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// MaxWait bounds how long an event waits for a write in flight to the same
// object: a write that takes longer (an API server under strain) lets the
// event pass, which costs at most one pass.
const MaxWait = 2 * time.Second

// RecordIdle is how long a recorded write is kept when no event shows the
// object again (its informer stopped, say, before the object was deleted):
// an echo arrives within moments of its write.
const RecordIdle = 10 * time.Minute

// Writes is the version each object was left at by this process's last
// write to it, by UID. An entry lives until an event shows the object at a
// newer version or deleted, or for RecordIdle; an object written again
// replaces its entry.
// Scheme names the kinds of typed objects (writes in flight are known by
// kind, namespace and name: a create has no UID yet). The zero value with
// a Scheme is ready; a nil *Writes records nothing and drops nothing.
type Writes struct {
	Scheme *runtime.Scheme

	mu       sync.Mutex
	version  map[types.UID]record
	inFlight map[objectKey]*flight
	waiting  int
	swept    time.Time
	// onWait, when set, is called as an event starts waiting (tests).
	onWait func()
}

type record struct {
	version string
	at      time.Time
}

type objectKey struct {
	kind            schema.GroupKind
	namespace, name string
}

// flight is the writes in flight to one object; done closes when the last
// has returned.
type flight struct {
	n    int
	done chan struct{}
}

// key names obj by kind, namespace and name; false when its kind is not
// known to the scheme (such an object is never waited for).
func (w *Writes) key(obj client.Object) (objectKey, bool) {
	if w.Scheme == nil {
		return objectKey{}, false
	}
	gvk, err := apiutil.GVKForObject(obj, w.Scheme)
	if err != nil {
		return objectKey{}, false
	}
	return objectKey{kind: gvk.GroupKind(), namespace: obj.GetNamespace(), name: obj.GetName()}, true
}

// begin marks a write to obj in flight; the function it returns marks it
// returned (after its version was recorded).
func (w *Writes) begin(obj client.Object) func() {
	if w == nil {
		return func() {}
	}
	k, ok := w.key(obj)
	if !ok {
		return func() {}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inFlight == nil {
		w.inFlight = map[objectKey]*flight{}
	}
	f := w.inFlight[k]
	if f == nil {
		f = &flight{done: make(chan struct{})}
		w.inFlight[k] = f
	}
	f.n++
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if f.n--; f.n == 0 {
			close(f.done)
			delete(w.inFlight, k)
		}
	}
}

// await waits until no write to obj is in flight, at most MaxWait.
func (w *Writes) await(obj client.Object) {
	k, ok := w.key(obj)
	if !ok {
		return
	}
	w.mu.Lock()
	f := w.inFlight[k]
	if f != nil {
		w.waiting++
	}
	onWait := w.onWait
	w.mu.Unlock()
	if f == nil {
		return
	}
	if onWait != nil {
		onWait()
	}
	defer func() {
		w.mu.Lock()
		w.waiting--
		w.mu.Unlock()
	}()
	t := time.NewTimer(MaxWait)
	defer t.Stop()
	select {
	case <-f.done:
	case <-t.C:
	}
}

// Record notes that obj, as returned by a successful write, is at its
// resourceVersion because of this process.
func (w *Writes) Record(obj client.Object) {
	if w == nil || obj.GetUID() == "" || obj.GetResourceVersion() == "" {
		return
	}
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version == nil {
		w.version = map[types.UID]record{}
	}
	w.version[obj.GetUID()] = record{version: obj.GetResourceVersion(), at: now}
	if now.Sub(w.swept) > RecordIdle/10 {
		w.swept = now
		for uid, r := range w.version {
			if now.Sub(r.at) > RecordIdle {
				delete(w.version, uid)
			}
		}
	}
}

// Echo reports whether obj, seen in an event, is at the version this
// process's last write left it at; while a write to obj is in flight it
// first waits for it (at most MaxWait). Seeing obj at a newer version
// forgets the write: the object changed since, and every later event is
// news; an older version (an event queued before the write) is news too,
// but keeps the record for the write's own echo. The entry stays on a
// match, so that every handler judging the event gets the same answer.
func (w *Writes) Echo(obj client.Object) bool {
	if w == nil || obj == nil {
		return false
	}
	w.await(obj)
	w.mu.Lock()
	defer w.mu.Unlock()
	r, ok := w.version[obj.GetUID()]
	if !ok {
		return false
	}
	if r.version == obj.GetResourceVersion() {
		return true
	}
	if cmp, err := resourceversion.CompareResourceVersion(obj.GetResourceVersion(), r.version); err != nil || cmp > 0 {
		delete(w.version, obj.GetUID())
	}
	return false
}

// Forget drops the record of obj (deleted).
func (w *Writes) Forget(obj client.Object) {
	if w == nil || obj == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.version, obj.GetUID())
}

// Len is the number of recorded writes.
func (w *Writes) Len() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.version)
}

// Waiting is the number of events waiting for a write in flight.
func (w *Writes) Waiting() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.waiting
}

// Predicate drops the create and update events of objects at the version
// this process wrote them at; deletions pass and forget the write. Put it
// only on a watch whose events go to the CR that wrote the object (the
// owned kinds): a handler that maps the object to other CRs would hide a
// real change from them.
func Predicate(w *Writes) predicate.Predicate {
	return predicate.Funcs{
		CreateFunc: func(e event.CreateEvent) bool { return !w.Echo(e.Object) },
		UpdateFunc: func(e event.UpdateEvent) bool { return !w.Echo(e.ObjectNew) },
		DeleteFunc: func(e event.DeleteEvent) bool {
			w.Forget(e.Object)
			return true
		},
	}
}

// Client records in Writes every object its Create, Update and Patch wrote;
// everything else passes through to the embedded client. Status writes are
// not recorded: the operator writes no child's status.
type Client struct {
	client.Client
	Writes *Writes
}

// Create creates obj and records the version it was created at.
func (c Client) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	if o := (&client.CreateOptions{}).ApplyOptions(opts); len(o.DryRun) > 0 {
		return c.Client.Create(ctx, obj, opts...)
	}
	defer c.Writes.begin(obj)()
	return c.recorded(obj, c.Client.Create(ctx, obj, opts...))
}

// Update updates obj and records the version it was left at.
func (c Client) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	if o := (&client.UpdateOptions{}).ApplyOptions(opts); len(o.DryRun) > 0 {
		return c.Client.Update(ctx, obj, opts...)
	}
	defer c.Writes.begin(obj)()
	return c.recorded(obj, c.Client.Update(ctx, obj, opts...))
}

// Patch patches obj and records the version it was left at.
func (c Client) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	if o := (&client.PatchOptions{}).ApplyOptions(opts); len(o.DryRun) > 0 {
		return c.Client.Patch(ctx, obj, patch, opts...)
	}
	defer c.Writes.begin(obj)()
	return c.recorded(obj, c.Client.Patch(ctx, obj, patch, opts...))
}

// recorded records obj after a write that succeeded. Dry runs are never
// recorded nor waited for: they return a version nothing is at.
func (c Client) recorded(obj client.Object, err error) error {
	if err == nil {
		c.Writes.Record(obj)
	}
	return err
}
