// Package secretcache narrows the operator's Secret informer (which keeps
// metadata only) to the namespaces that hold its CRs.
//
// A referenced credential Secret may carry no label of ours (ESO writes it,
// or a person does), so no selector tells it from an unrelated Secret: a
// cluster-wide Secret informer holds every Secret of the cluster, about
// 550 bytes each even trimmed. Secret events matter only where a CR is (every
// mapping from a Secret to a CR stays in the Secret's namespace), so this
// cache runs one Secret informer per namespace that holds at
// least one object of the tracked kinds (the operator's own CRs): started when
// the first arrives, stopped when the last is gone. Each lists and watches
// whole Secrets and keeps their metadata only, after offering the data of
// the Secrets the tracked objects reference to a Sink (Feed: the Secret
// memo). Everything else is the wrapped controller-runtime cache's. See
// docs/decisions/caching.md.
package secretcache

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

var (
	secretGVK     = corev1.SchemeGroupVersion.WithKind("Secret")
	secretListGVK = corev1.SchemeGroupVersion.WithKind("SecretList")
	secretGVR     = corev1.SchemeGroupVersion.WithResource("secrets")
)

// Cache is a controller-runtime cache whose Secret informer (metadata kept,
// referenced Secrets' data offered to a Sink, Feed) is split by namespace:
// one informer per namespace holding a tracked object.
// Secret metadata reads in such a namespace are that informer's (blocking
// until it has synced); elsewhere, and for lists across namespaces, they go
// to the API server. GetInformer of Secret metadata returns one informer
// that spans the namespaces: a handler added to it gets the events of every
// namespace informer, present and future, each started one with its initial
// list. Typed Secrets and every other kind are the wrapped cache's.
type Cache struct {
	cache.Cache
	live      client.Reader
	secrets   corev1client.SecretsGetter
	scheme    *runtime.Scheme
	transform toolscache.TransformFunc
	tracked   []client.Object

	mu       sync.Mutex
	ctx      context.Context
	trackers []toolscache.ResourceEventHandlerRegistration
	holders  map[string]map[holder]struct{}
	shards   map[string]*shard
	regs     []*registration
	sink     secrets.Sink
	refs     []refIndex
}

// holder is a tracked object keeping its namespace's informer running.
type holder struct{ kind, name string }

// NewFunc is the manager's NewCache: New with the tracked kinds.
func NewFunc(tracked ...client.Object) cache.NewCacheFunc {
	return func(cfg *rest.Config, opts cache.Options) (cache.Cache, error) {
		return New(cfg, opts, tracked...)
	}
}

// New wraps cache.New(cfg, opts). tracked are the kinds (typed, namespaced,
// read from the wrapped cache) whose objects keep their namespace's Secret
// informer running. The namespace informers read with opts' HTTP client,
// transform each object with the transform of opts' ByObject entry of
// Secrets (else its DefaultTransform) and do not resync.
func New(cfg *rest.Config, opts cache.Options, tracked ...client.Object) (*Cache, error) {
	if err := defaults(cfg, &opts); err != nil {
		return nil, err
	}
	inner, err := cache.New(cfg, opts)
	if err != nil {
		return nil, err
	}
	live, err := client.New(cfg, client.Options{HTTPClient: opts.HTTPClient, Scheme: opts.Scheme, Mapper: opts.Mapper})
	if err != nil {
		return nil, err
	}
	typed, err := corev1client.NewForConfigAndClient(protobuf(cfg), opts.HTTPClient)
	if err != nil {
		return nil, err
	}
	transform, err := secretTransform(opts)
	if err != nil {
		return nil, err
	}
	return &Cache{
		Cache:     inner,
		live:      live,
		secrets:   typed,
		scheme:    opts.Scheme,
		transform: transform,
		tracked:   tracked,
		holders:   map[string]map[holder]struct{}{},
		shards:    map[string]*shard{},
	}, nil
}

// protobuf is cfg asking for protobuf, the cheaper encoding of built-in
// kinds to decode, for the namespace informers' whole Secrets.
func protobuf(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	return cfg
}

// defaults fills what the manager fills before it calls NewCache, for
// callers that build the cache themselves.
func defaults(cfg *rest.Config, opts *cache.Options) error {
	var err error
	if opts.Scheme == nil {
		opts.Scheme = scheme.Scheme
	}
	if opts.HTTPClient == nil {
		if opts.HTTPClient, err = rest.HTTPClientFor(cfg); err != nil {
			return err
		}
	}
	if opts.Mapper == nil {
		opts.Mapper, err = apiutil.NewDynamicRESTMapper(cfg, opts.HTTPClient)
	}
	return err
}

// secretTransform is the transform of opts' ByObject entry of Secrets, else
// its DefaultTransform (nil when neither is set).
func secretTransform(opts cache.Options) (toolscache.TransformFunc, error) {
	for obj, by := range opts.ByObject {
		gvk, err := apiutil.GVKForObject(obj, opts.Scheme)
		if err != nil {
			return nil, err
		}
		if gvk == secretGVK && by.Transform != nil {
			return by.Transform, nil
		}
	}
	return opts.DefaultTransform, nil
}

// secretMetadata reports whether obj is a metadata-only Secret or list.
func secretMetadata(obj runtime.Object) bool {
	switch o := obj.(type) {
	case *metav1.PartialObjectMetadata:
		return o.GroupVersionKind() == secretGVK
	case *metav1.PartialObjectMetadataList:
		gvk := o.GroupVersionKind()
		return gvk == secretListGVK || gvk == secretGVK
	}
	return false
}

// Get reads Secret metadata from its namespace's informer, or from the API
// server where none runs; anything else from the wrapped cache.
func (c *Cache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if !secretMetadata(obj) {
		return c.Cache.Get(ctx, key, obj, opts...)
	}
	if len(opts) == 0 {
		s, err := c.synced(ctx, key.Namespace)
		if err != nil {
			return err
		}
		if s != nil {
			return s.get(key, obj.(*metav1.PartialObjectMetadata))
		}
	}
	return c.live.Get(ctx, key, obj, opts...)
}

// List lists Secret metadata of one namespace from its informer, or from the
// API server where none runs or across namespaces; anything else from the
// wrapped cache.
func (c *Cache) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if !secretMetadata(list) {
		return c.Cache.List(ctx, list, opts...)
	}
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if lo.Namespace != "" && lo.Limit == 0 && lo.Continue == "" {
		s, err := c.synced(ctx, lo.Namespace)
		if err != nil {
			return err
		}
		if s != nil {
			return s.list(lo, list.(*metav1.PartialObjectMetadataList))
		}
	}
	return c.live.List(ctx, list, opts...)
}

// synced is ns's Secret informer once it has synced, nil when none runs
// (or it stopped, its namespace's last tracked object gone): the caller
// reads live then.
func (c *Cache) synced(ctx context.Context, ns string) (*shard, error) {
	s := c.shard(ns)
	if s == nil {
		return nil, nil
	}
	if err := s.wait(ctx); err != nil {
		if errors.Is(err, errStopped) {
			return nil, nil
		}
		return nil, err
	}
	if s.stopped() {
		return nil, nil
	}
	return s, nil
}

// GetInformer returns, for Secret metadata, the informer spanning the
// namespace informers; else the wrapped cache's.
func (c *Cache) GetInformer(ctx context.Context, obj client.Object, opts ...cache.InformerGetOption) (cache.Informer, error) {
	if secretMetadata(obj) {
		return &informer{c: c}, nil
	}
	return c.Cache.GetInformer(ctx, obj, opts...)
}

// RemoveInformer leaves the namespace informers alone: they follow the
// tracked objects.
func (c *Cache) RemoveInformer(ctx context.Context, obj client.Object) error {
	if secretMetadata(obj) {
		return nil
	}
	return c.Cache.RemoveInformer(ctx, obj)
}

// IndexField refuses Secret metadata: no namespace informer is indexed.
func (c *Cache) IndexField(ctx context.Context, obj client.Object, field string, extract client.IndexerFunc) error {
	if secretMetadata(obj) {
		return fmt.Errorf("secretcache: no field index on Secret metadata (%s)", field)
	}
	return c.Cache.IndexField(ctx, obj, field, extract)
}

// GetInformerForKind refuses Secrets: by kind it would be a typed,
// cluster-wide Secret informer, which caches Secret data (GetInformer with
// a metadata-only Secret is the Secret informer).
func (c *Cache) GetInformerForKind(ctx context.Context, gvk schema.GroupVersionKind, opts ...cache.InformerGetOption) (cache.Informer, error) {
	if gvk == secretGVK {
		return nil, errors.New("secretcache: no typed Secret informer; GetInformer with Secret metadata is the Secret informer")
	}
	return c.Cache.GetInformerForKind(ctx, gvk, opts...)
}

// WaitForCacheSync waits for the wrapped cache, for the tracked kinds'
// objects to have started their namespaces' Secret informers, and for
// those to sync (or stop).
func (c *Cache) WaitForCacheSync(ctx context.Context) bool {
	if !c.Cache.WaitForCacheSync(ctx) {
		return false
	}
	if !toolscache.WaitForCacheSync(ctx.Done(), c.trackersSynced) {
		return false
	}
	for _, s := range c.running() {
		if err := s.wait(ctx); err != nil && !errors.Is(err, errStopped) {
			return false
		}
	}
	return true
}

// trackersSynced reports whether the tracked kinds' initial objects have all
// reached the tracker (so every namespace informer they need exists).
func (c *Cache) trackersSynced() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.trackers {
		if !r.HasSynced() {
			return false
		}
	}
	return true
}

// Start follows the tracked kinds' informers of the wrapped cache (their
// objects start and stop the namespace informers), then runs the wrapped
// cache until ctx ends.
func (c *Cache) Start(ctx context.Context) error {
	c.mu.Lock()
	c.ctx = ctx
	c.mu.Unlock()
	for _, obj := range c.tracked {
		inf, err := c.Cache.GetInformer(ctx, obj)
		if err != nil {
			return fmt.Errorf("secretcache: informer of %T: %w", obj, err)
		}
		r, err := inf.AddEventHandler(tracker{c: c})
		if err != nil {
			return err
		}
		c.mu.Lock()
		c.trackers = append(c.trackers, r)
		c.mu.Unlock()
	}
	return c.Cache.Start(ctx)
}

// Namespaces are the namespaces whose Secret informer runs, sorted.
func (c *Cache) Namespaces() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.shards))
}

// Len is how many Secrets the namespace informers hold.
func (c *Cache) Len() int {
	n := 0
	for _, s := range c.running() {
		n += len(s.store.ListKeys())
	}
	return n
}
