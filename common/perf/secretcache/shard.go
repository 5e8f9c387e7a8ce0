package secretcache

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// shard is one namespace's Secret informer: a plain client-go informer
// whose one handler, the Cache's dispatcher, runs in its pop loop and passes
// each event to every registered handler. No shared informer: its event
// buffer and goroutines per handler, and a controller-runtime cache per
// namespace on top, cost four times the memory (BenchmarkNamespaceInformer).
type shard struct {
	store      toolscache.Store
	controller toolscache.Controller
	stop       context.CancelFunc
	done       <-chan struct{}
	synced     atomic.Bool
}

// newShard is the Secret informer of namespace ns: it lists and watches
// whole Secrets but keeps their metadata only, each offered to the Cache's
// Sink first (Cache.offer) and then transformed by the Cache's transform;
// its events go to the Cache's dispatcher. It does not resync: the
// operators' Secret watches drop resyncs (the CR's watch carries them).
func (c *Cache) newShard(ctx context.Context, ns string) *shard {
	secrets := c.secrets.Secrets(ns)
	store, controller := toolscache.NewInformerWithOptions(toolscache.InformerOptions{
		ListerWatcher: &toolscache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return secrets.List(ctx, o)
			},
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return secrets.Watch(ctx, o)
			},
		},
		ObjectType: &corev1.Secret{},
		Handler:    dispatcher{c: c},
		Transform: func(in any) (any, error) {
			// Anything else went through here already: client-go's
			// watch-list transforms its first list into a temporary store,
			// then hands those objects to the queue again.
			s, ok := in.(*corev1.Secret)
			if !ok {
				return in, nil
			}
			m := c.offer(ctx, s)
			if c.transform == nil {
				return m, nil
			}
			return c.transform(m)
		},
	})
	return &shard{store: store, controller: controller}
}

// errStopped is wait's answer for an informer stopped before it synced.
var errStopped = errors.New("secretcache: the Secret informer stopped before it synced")

// wait blocks until the shard's informer has synced (at once after the
// first time), or ctx ends (ctx's error) or the shard stops (errStopped).
func (s *shard) wait(ctx context.Context) error {
	if s.synced.Load() {
		return nil
	}
	select {
	case <-s.controller.HasSyncedChecker().Done():
		s.synced.Store(true)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errStopped
	}
}

// stopped reports whether the shard's informer has stopped.
func (s *shard) stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// get copies the cached metadata of key into out.
func (s *shard) get(key client.ObjectKey, out *metav1.PartialObjectMetadata) error {
	obj, ok, err := s.store.GetByKey(key.Namespace + "/" + key.Name)
	if err != nil {
		return err
	}
	if !ok {
		return apierrors.NewNotFound(secretGVR.GroupResource(), key.Name)
	}
	obj.(*metav1.PartialObjectMetadata).DeepCopyInto(out)
	return nil
}

// list copies the cached metadata matching o's label selector into out.
func (s *shard) list(o *client.ListOptions, out *metav1.PartialObjectMetadataList) error {
	if o.FieldSelector != nil && !o.FieldSelector.Empty() {
		return fmt.Errorf("secretcache: no field selector on cached Secret metadata (%s)", o.FieldSelector)
	}
	gvk := out.GroupVersionKind()
	out.Items = nil
	for _, obj := range s.store.List() {
		m := obj.(*metav1.PartialObjectMetadata)
		if o.LabelSelector != nil && !o.LabelSelector.Matches(labels.Set(m.Labels)) {
			continue
		}
		out.Items = append(out.Items, *m.DeepCopy())
	}
	out.ResourceVersion = s.controller.LastSyncResourceVersion()
	out.SetGroupVersionKind(gvk)
	return nil
}

// tracker follows a tracked kind: its objects start and stop the Secret
// informers of their namespaces.
type tracker struct{ c *Cache }

func (t tracker) OnAdd(obj any, _ bool) { t.c.hold(obj, true) }
func (t tracker) OnUpdate(_, _ any)     {}
func (t tracker) OnDelete(obj any)      { t.c.hold(obj, false) }

// hold records a tracked object's arrival (present) or departure and starts
// or stops its namespace's Secret informer when that changes whether the
// namespace holds any.
func (c *Cache) hold(obj any, present bool) {
	o, ok := object(obj)
	if !ok || o.GetNamespace() == "" {
		return
	}
	ns, key := o.GetNamespace(), holder{kind: fmt.Sprintf("%T", o), name: o.GetName()}
	c.mu.Lock()
	defer c.mu.Unlock()
	if present {
		if c.holders[ns] == nil {
			c.holders[ns] = map[holder]struct{}{}
		}
		c.holders[ns][key] = struct{}{}
		if c.shards[ns] == nil {
			c.startShard(ns)
		}
		return
	}
	delete(c.holders[ns], key)
	if len(c.holders[ns]) == 0 {
		delete(c.holders, ns)
		c.stopShard(ns)
	}
}

// object is the object of an informer event, the last one known for a
// tombstone.
func object(obj any) (client.Object, bool) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	o, ok := obj.(client.Object)
	return o, ok
}

// startShard starts ns's Secret informer. Caller holds c.mu.
func (c *Cache) startShard(ns string) {
	ctx, cancel := context.WithCancel(c.ctx)
	s := c.newShard(ctx, ns)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.controller.RunWithContext(ctx)
	}()
	s.stop, s.done = cancel, done
	c.shards[ns] = s
}

// stopShard stops ns's Secret informer. Caller holds c.mu.
func (c *Cache) stopShard(ns string) {
	if s := c.shards[ns]; s != nil {
		s.stop()
		delete(c.shards, ns)
	}
}

// shard is ns's running Secret informer, nil when none runs.
func (c *Cache) shard(ns string) *shard {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.shards[ns]
}

// running are the namespace informers running now.
func (c *Cache) running() []*shard {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*shard, 0, len(c.shards))
	for _, s := range c.shards {
		out = append(out, s)
	}
	return out
}
