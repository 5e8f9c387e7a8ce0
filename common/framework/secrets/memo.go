package secrets

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MemoIdle is how long a remembered Secret nobody read stays in a Memo:
// longer than a resync period, so every Secret a CR reads stays.
const MemoIdle = time.Hour

// Memo is a client whose typed Secret reads are answered from memory while
// the cache's Secret informer (which keeps metadata only) shows the Secret
// at the resourceVersion last read: a pass over unchanged inputs reads no
// Secret from the API server, yet Secret data is kept only for the Secrets
// the operator references or writes, never for the cluster's.
// A changed Secret, or one the memo does not hold yet, is read from the API
// server (the embedded client, whose Secret reads are uncached) and
// remembered; one neither the informer nor the memo holds is not found,
// without a read at the server (like any cached kind, the answer lags a
// creation by the informer's delay, and the creation's event brings the
// next pass); every other read and every write passes through. A Secret
// the operator writes is remembered at the version the server returned, and
// one a Secret informer offers (Offer) at the version it saw, so that even
// a first read can be answered from memory. Metadata-only Secret reads
// and lists (unpaged) are Meta's: the informer holds the metadata of every
// Secret in the namespaces it watches (and reads the others live).
type Memo struct {
	client.Client
	// Meta reads the Secret informers' metadata (the cluster's cache).
	Meta client.Reader
	// Now is the clock of the idle sweep; time.Now when nil.
	Now func() time.Time

	mu      sync.Mutex
	entries map[types.NamespacedName]memoEntry
	swept   time.Time
}

type memoEntry struct {
	secret *corev1.Secret
	used   time.Time
}

var (
	secretGVK     = corev1.SchemeGroupVersion.WithKind("Secret")
	secretListGVK = corev1.SchemeGroupVersion.WithKind("SecretList")
)

// Get answers a typed Secret read from memory when the cache shows the
// remembered version, else from the API server. A Secret neither the cache
// nor the memo holds is not found, as for every other cached kind: no live
// read asks the API server for an object this operator is about to create.
// One the memo holds (this process wrote or read it and has not forgotten
// it) but the cache does not show is read live: the cache may lag this
// process's own create, or the Secret is gone.
func (m *Memo) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if pm, ok := obj.(*metav1.PartialObjectMetadata); ok && pm.GroupVersionKind() == secretGVK && len(opts) == 0 {
		return m.Meta.Get(ctx, key, obj)
	}
	s, ok := obj.(*corev1.Secret)
	if !ok || len(opts) > 0 {
		return m.Client.Get(ctx, key, obj, opts...)
	}
	meta := &metav1.PartialObjectMetadata{}
	meta.SetGroupVersionKind(secretGVK)
	err := m.Meta.Get(ctx, key, meta)
	e, held := m.lookup(key)
	if apierrors.IsNotFound(err) && !held {
		return err
	}
	if err == nil && held && meta.ResourceVersion == e.secret.ResourceVersion {
		m.recall(key, e, s)
		return nil
	}
	if err := m.Client.Get(ctx, key, s); err != nil {
		if apierrors.IsNotFound(err) {
			m.forget(key)
		}
		return err
	}
	m.remember(s)
	return nil
}

// List reads metadata-only Secret lists without paging from the informer;
// every other list passes through.
func (m *Memo) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if pl, ok := list.(*metav1.PartialObjectMetadataList); ok && pl.GroupVersionKind() == secretListGVK {
		var lo client.ListOptions
		lo.ApplyOptions(opts)
		if lo.Limit == 0 && lo.Continue == "" {
			return m.Meta.List(ctx, list, opts...)
		}
	}
	return m.Client.List(ctx, list, opts...)
}

// Create writes obj; Create, Update and Patch remember the Secret they wrote
// (or forget it when the write failed).
func (m *Memo) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	return m.wrote(obj, m.Client.Create(ctx, obj, opts...))
}

// Update writes obj; see Create.
func (m *Memo) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return m.wrote(obj, m.Client.Update(ctx, obj, opts...))
}

// Patch writes obj; see Create.
func (m *Memo) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return m.wrote(obj, m.Client.Patch(ctx, obj, patch, opts...))
}

// Delete deletes obj and forgets it.
func (m *Memo) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	err := m.Client.Delete(ctx, obj, opts...)
	if _, ok := obj.(*corev1.Secret); ok {
		m.forget(client.ObjectKeyFromObject(obj))
	}
	return err
}

// Sink takes the data of Secrets as an informer sees them, for the
// Secrets it wants (a Secret cache's Feed). Memo is one.
type Sink interface {
	// Holds reports whether the sink keeps key's data already: it is then
	// not offered (the sink keeps what it read or wrote itself).
	Holds(key client.ObjectKey) bool
	// Offer hands the sink a Secret, data included; the sink copies what
	// it keeps, and keeps nothing over what it holds.
	Offer(s *corev1.Secret)
	// Forget tells the sink the Secret key is gone.
	Forget(key client.ObjectKey)
}

var _ Sink = &Memo{}

// Holds reports whether the memo remembers key's Secret.
func (m *Memo) Holds(key client.ObjectKey) bool {
	_, ok := m.lookup(key)
	return ok
}

// Offer remembers s, a Secret as the cache's informer saw it, unless the
// memo remembers that Secret already: what it read or wrote itself is as
// new or newer (the informer's copy may trail the operator's own write), so
// an offer never replaces it. The first read of an offered Secret is then
// answered from memory while the informer shows that version
// (secretcache.Cache.Feed), as fresh as a read after a change.
func (m *Memo) Offer(s *corev1.Secret) {
	if s.ResourceVersion == "" {
		return
	}
	m.store(s, false)
}

// Forget drops key's Secret: it is gone.
func (m *Memo) Forget(key client.ObjectKey) { m.forget(key) }

// Len is the number of remembered Secrets.
func (m *Memo) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

func (m *Memo) wrote(obj client.Object, err error) error {
	s, ok := obj.(*corev1.Secret)
	switch {
	case !ok:
	case err == nil && s.ResourceVersion != "" && s.Data != nil:
		m.remember(s)
	default:
		// A failed write, or a server answer without data (a dry run, a
		// metadata patch): the next read goes to the server.
		m.forget(client.ObjectKeyFromObject(obj))
	}
	return err
}

// lookup returns the remembered entry of key, if any.
func (m *Memo) lookup(key client.ObjectKey) (memoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	return e, ok
}

// recall copies the remembered Secret of entry e into s and marks it used.
func (m *Memo) recall(key client.ObjectKey, e memoEntry, s *corev1.Secret) {
	e.secret.DeepCopyInto(s)
	m.mu.Lock()
	if cur, ok := m.entries[key]; ok && cur.secret == e.secret {
		m.entries[key] = memoEntry{secret: e.secret, used: m.now()}
	}
	m.mu.Unlock()
}

func (m *Memo) remember(s *corev1.Secret) { m.store(s, true) }

// store keeps a copy of s; over an entry of the same Secret only when
// replace is set (in one critical section: an offer never overwrites a
// read or write that lands between its check and its store).
func (m *Memo) store(s *corev1.Secret, replace bool) {
	now := m.now()
	key := client.ObjectKeyFromObject(s)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[types.NamespacedName]memoEntry{}
	}
	if _, held := m.entries[key]; held && !replace {
		return
	}
	m.entries[key] = memoEntry{secret: s.DeepCopy(), used: now}
	if now.Sub(m.swept) > MemoIdle {
		for k, e := range m.entries {
			if now.Sub(e.used) > MemoIdle {
				delete(m.entries, k)
			}
		}
		m.swept = now
	}
}

func (m *Memo) forget(key client.ObjectKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, key)
}

func (m *Memo) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}
