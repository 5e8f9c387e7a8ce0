package secretcache

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// refIndex is a field index over a tracked kind whose values are names of
// Secrets in the object's namespace.
type refIndex struct {
	field string
	list  client.ObjectList // an empty list of the kind, copied for each lookup
}

// The management cluster's target wires its Secret memo in through this
// method (targetcluster.New).
var _ interface{ Feed(secrets.Sink) } = (*Cache)(nil)

// Feed makes the namespace informers offer sink (the operator's Secret
// memo, whose first read of a credential Secret then needs no request)
// every Secret that an object of the tracked kinds names in a reference
// index (IndexReferencedSecrets) and that sink does not hold yet, and tell
// it of every Secret deleted. nil stops both.
func (c *Cache) Feed(sink secrets.Sink) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sink = sink
}

// IndexReferencedSecrets registers a field index over obj's kind (one of
// the tracked kinds), as IndexField, whose values (extract) are names of
// Secrets in the object's namespace: the Secrets the operator will read.
// When idx is a Cache, the namespace informers offer those Secrets' data to
// the Cache's Sink (Feed).
func IndexReferencedSecrets(ctx context.Context, idx client.FieldIndexer, obj client.Object, field string, extract client.IndexerFunc) error {
	if err := idx.IndexField(ctx, obj, field, extract); err != nil {
		return err
	}
	c, ok := idx.(*Cache)
	if !ok {
		return nil
	}
	gvk, err := apiutil.GVKForObject(obj, c.scheme)
	if err != nil {
		return err
	}
	listGVK := gvk.GroupVersion().WithKind(gvk.Kind + "List")
	o, err := c.scheme.New(listGVK)
	if err != nil {
		return err
	}
	list, ok := o.(client.ObjectList)
	if !ok {
		return fmt.Errorf("secretcache: %s is not a list", listGVK)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs = append(c.refs, refIndex{field: field, list: list})
	return nil
}

// offer is the first step of the namespace informers' transform: it hands
// the Sink a Secret that a tracked object references and the Sink does not
// hold, then returns the Secret's metadata, the only part the informer
// keeps. The object of a watch's deletion event passes here too (the
// dispatcher then tells the Sink to forget it, forget).
func (c *Cache) offer(ctx context.Context, s *corev1.Secret) *metav1.PartialObjectMetadata {
	c.mu.Lock()
	sink, refs := c.sink, c.refs
	c.mu.Unlock()
	if sink != nil {
		key := client.ObjectKeyFromObject(s)
		if !sink.Holds(key) && c.referenced(ctx, refs, key) {
			sink.Offer(s)
		}
	}
	m := &metav1.PartialObjectMetadata{ObjectMeta: s.ObjectMeta}
	m.SetGroupVersionKind(secretGVK)
	return m
}

// forget tells the Sink that a Secret is gone.
func (c *Cache) forget(obj any) {
	o, ok := object(obj)
	c.mu.Lock()
	sink := c.sink
	c.mu.Unlock()
	if ok && sink != nil {
		sink.Forget(client.ObjectKeyFromObject(o))
	}
}

// referenced reports whether an object of a tracked kind names key in one
// of refs (from the wrapped cache's index, without copying the objects).
// The read waits for the indexed kind's informer to sync, as every cached
// read does; that informer is a tracked kind's, which the manager waits for
// before any controller starts, and the wait ends with the namespace
// informer (ctx). A failed lookup counts as not referenced: the Sink then
// reads the Secret itself, as without the offer.
func (c *Cache) referenced(ctx context.Context, refs []refIndex, key client.ObjectKey) bool {
	for _, r := range refs {
		l := r.list.DeepCopyObject().(client.ObjectList)
		err := c.Cache.List(ctx, l, client.InNamespace(key.Namespace), client.MatchingFields{r.field: key.Name}, client.UnsafeDisableDeepCopy)
		if err == nil && meta.LenList(l) > 0 {
			return true
		}
	}
	return false
}
