package secrets_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	"github.com/c5c3/openstack-operators/common/perf/secretcache"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The memo against a real API server and a real metadata-only informer: a
// Secret read twice at one version costs one GET; a change seen by the
// informer leads to the server; a write through the memo and a Secret
// neither the informer nor the memo holds (not created yet, deleted and
// forgotten) do not.
func TestMemoReadsOnlyChangedSecrets(t *testing.T) {
	e := newMemoEnv(t, cache.New, nil)
	ctx, raw, memo, meta := e.ctx, e.raw, e.memo, secretMeta()
	gets, other, lists := &e.gets, &e.other, &e.lists
	key := client.ObjectKey{Namespace: ns, Name: "db"}
	// Not created yet (what a step reads before creating its own Secret):
	// the informer's answer, no read at the server.
	if err := memo.Get(ctx, key, &corev1.Secret{}); !apierrors.IsNotFound(err) || gets.Load() != 0 {
		t.Errorf("before creation: err %v, %d GETs, want not found with none", err, gets.Load())
	}
	cached := func(rv string) { t.Helper(); e.cached("db", rv) }
	read := func(want string, wantGets int32) { t.Helper(); e.read("db", want, wantGets) }

	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"}, Data: map[string][]byte{"password": []byte("one")}}
	if err := raw.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	cached(s.ResourceVersion)
	read("one", 1)
	read("one", 1) // same version: from memory
	read("one", 1)

	// Metadata reads and unpaged metadata lists are the informer's.
	if err := memo.Get(ctx, key, meta.DeepCopy()); err != nil || other.Load() != 0 || gets.Load() != 1 {
		t.Errorf("metadata read: %v, %d other reads and %d GETs at the server", err, other.Load(), gets.Load())
	}
	metaList := &metav1.PartialObjectMetadataList{}
	metaList.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	if err := memo.List(ctx, metaList, client.InNamespace(ns)); err != nil || lists.Load() != 0 || len(metaList.Items) == 0 {
		t.Errorf("metadata list: %v, %d lists at the server, %d items", err, lists.Load(), len(metaList.Items))
	}
	if err := memo.List(ctx, metaList, client.InNamespace(ns), client.Limit(10)); err != nil || lists.Load() != 1 {
		t.Errorf("paged metadata list: %v, %d lists at the server, want it passed through", err, lists.Load())
	}

	// Changed by someone else: read again once the informer sees it.
	s.Data["password"] = []byte("two")
	if err := raw.Update(ctx, s); err != nil {
		t.Fatal(err)
	}
	cached(s.ResourceVersion)
	read("two", 2)
	read("two", 2)

	// Written through the memo: remembered at the server's answer, so
	// once the informer has it, no read follows.
	mine := s.DeepCopy()
	mine.Data["password"] = []byte("three")
	if err := memo.Update(ctx, mine); err != nil {
		t.Fatal(err)
	}
	cached(mine.ResourceVersion)
	read("three", 2)

	// A caller's copy is its own.
	var copy1 corev1.Secret
	if err := memo.Get(ctx, key, &copy1); err != nil {
		t.Fatal(err)
	}
	copy1.Data["password"] = []byte("scribbled")
	read("three", 2)

	// Deleted by someone else: once the informer loses it, the memo, which
	// still holds it, asks the server, which says not found; the memo
	// forgets it, and the next read is not found without a read at the
	// server.
	if err := raw.Delete(ctx, mine); err != nil {
		t.Fatal(err)
	}
	cached("")
	if err := memo.Get(ctx, key, &corev1.Secret{}); !apierrors.IsNotFound(err) || gets.Load() != 3 {
		t.Errorf("after deletion: err %v, %d GETs, want not found after a third GET", err, gets.Load())
	}
	if err := memo.Get(ctx, key, &corev1.Secret{}); !apierrors.IsNotFound(err) || gets.Load() != 3 {
		t.Errorf("after deletion, read again: err %v, %d GETs, want not found with no fourth GET", err, gets.Load())
	}
	if memo.Len() != 0 {
		t.Errorf("memo holds %d Secrets after the only one was deleted", memo.Len())
	}

	// Other kinds pass through.
	if err := memo.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{}); err != nil || other.Load() != 1 {
		t.Errorf("namespace read: %v, %d passed through", err, other.Load())
	}
}

// Secrets nobody read for MemoIdle leave the memo at the next write to it.
// ns is the namespace of the memo tests' Secrets.
const ns = "default"

// memoEnv is a memo over a real API server, its reads at the server
// counted, validated against the Secret informer of a real cache whose every
// event wakes cached.
type memoEnv struct {
	t                  *testing.T
	ctx                context.Context
	raw                client.WithWatch
	c                  cache.Cache
	memo               *secrets.Memo
	events             chan struct{}
	gets, other, lists atomic.Int32
}

// newMemoEnv starts an API server and the cache newCache builds; before
// the cache starts, prepare (nil: none) may register indexes or feeds.
func newMemoEnv(t *testing.T, newCache func(*rest.Config, cache.Options) (cache.Cache, error), prepare func(context.Context, cache.Cache, *secrets.Memo) error) *memoEnv {
	t.Helper()
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	scheme := managerconfig.NewScheme()
	raw, err := client.NewWithWatch(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCache(cfg, cache.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	e := &memoEnv{t: t, ctx: ctx, raw: raw, c: c, events: make(chan struct{}, 1)}
	e.memo = &secrets.Memo{Client: interceptor.NewClient(raw, interceptor.Funcs{
		List: func(ctx context.Context, cl client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
			e.lists.Add(1)
			return cl.List(ctx, list, opts...)
		},
		Get: func(ctx context.Context, cl client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if _, ok := obj.(*corev1.Secret); ok {
				e.gets.Add(1)
			} else {
				e.other.Add(1)
			}
			return cl.Get(ctx, key, obj, opts...)
		},
	}), Meta: c}
	if prepare != nil {
		if err := prepare(ctx, c, e.memo); err != nil {
			t.Fatal(err)
		}
	}
	inf, err := c.GetInformer(ctx, secretMeta())
	if err != nil {
		t.Fatal(err)
	}
	wake := func(any) {
		select {
		case e.events <- struct{}{}:
		default:
		}
	}
	if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: wake, DeleteFunc: wake, UpdateFunc: func(_, n any) { wake(n) },
	}); err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
	return e
}

// secretMeta is an empty metadata-only Secret.
func secretMeta() *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	return m
}

// cached waits, event by event, until the informer shows Secret name at rv
// ("" = gone).
func (e *memoEnv) cached(name, rv string) {
	e.t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name}
	for {
		m := secretMeta()
		err := e.c.Get(e.ctx, key, m)
		if rv == "" && apierrors.IsNotFound(err) || err == nil && m.ResourceVersion == rv {
			return
		}
		select {
		case <-e.events:
		case <-e.ctx.Done():
			e.t.Fatalf("the informer never showed %s at %q (%v)", key, rv, err)
		}
	}
}

// read reads Secret name through the memo and checks its password and the
// GETs at the server so far.
func (e *memoEnv) read(name, want string, wantGets int32) {
	e.t.Helper()
	var s corev1.Secret
	if err := e.memo.Get(e.ctx, client.ObjectKey{Namespace: ns, Name: name}, &s); err != nil {
		e.t.Fatal(err)
	}
	if got := e.gets.Load(); string(s.Data["password"]) != want || got != wantGets {
		e.t.Errorf("read %s: %q with %d GETs in all, want %q with %d", name, s.Data["password"], got, want, wantGets)
	}
}

func TestMemoForgetsIdleSecrets(t *testing.T) {
	now := time.Unix(0, 0)
	memo := &secrets.Memo{Client: acceptingWriter{}, Now: func() time.Time { return now }}
	for _, name := range []string{"a", "b"} {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: "1"}, Data: map[string][]byte{"k": nil}}
		if err := memo.Create(context.Background(), s); err != nil {
			t.Fatal(err)
		}
		now = now.Add(secrets.MemoIdle + time.Minute)
	}
	if memo.Len() != 1 {
		t.Errorf("memo holds %d Secrets, want b only (a idle for longer than MemoIdle)", memo.Len())
	}
}

// acceptingWriter accepts every create as written.
type acceptingWriter struct{ client.Client }

func (acceptingWriter) Create(context.Context, client.Object, ...client.CreateOption) error {
	return nil
}

// While the cache has not caught up with a Secret this process created, a
// read goes to the server instead of answering not found (which would make
// a step create it again into AlreadyExists); a Secret neither the cache nor
// the memo knows is not found without a read. Stubs stand in for the cache
// (one that never catches up) and the server, to hold that lag open.
func TestMemoReadsItsOwnCreateLiveWhileTheCacheLagsWithStubs(t *testing.T) {
	ctx := context.Background()
	server := &storingServer{}
	memo := &secrets.Memo{Client: server, Meta: laggingCache{}}
	key := client.ObjectKey{Namespace: "ns", Name: "own"}
	if err := memo.Get(ctx, key, &corev1.Secret{}); !apierrors.IsNotFound(err) || server.gets != 0 {
		t.Fatalf("unknown Secret: err %v after %d reads at the server, want not found after none", err, server.gets)
	}
	mine := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "own"}, Data: map[string][]byte{"k": []byte("v")}}
	if err := memo.Create(ctx, mine); err != nil {
		t.Fatal(err)
	}
	var got corev1.Secret
	if err := memo.Get(ctx, key, &got); err != nil || string(got.Data["k"]) != "v" || server.gets != 1 {
		t.Errorf("own Secret the cache does not show yet: err %v, data %q after %d reads at the server, want it read live once",
			err, got.Data["k"], server.gets)
	}
}

// laggingCache never shows a Secret.
type laggingCache struct{}

func (laggingCache) Get(_ context.Context, key client.ObjectKey, _ client.Object, _ ...client.GetOption) error {
	return apierrors.NewNotFound(corev1.Resource("secrets"), key.Name)
}

func (laggingCache) List(context.Context, client.ObjectList, ...client.ListOption) error { return nil }

// storingServer keeps the Secrets created and counts the reads.
type storingServer struct {
	client.Client
	stored map[client.ObjectKey]*corev1.Secret
	gets   int
}

func (s *storingServer) Create(_ context.Context, obj client.Object, _ ...client.CreateOption) error {
	sec := obj.(*corev1.Secret)
	sec.ResourceVersion = "1"
	if s.stored == nil {
		s.stored = map[client.ObjectKey]*corev1.Secret{}
	}
	s.stored[client.ObjectKeyFromObject(sec)] = sec.DeepCopy()
	return nil
}

func (s *storingServer) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	s.gets++
	sec, ok := s.stored[key]
	if !ok {
		return apierrors.NewNotFound(corev1.Resource("secrets"), key.Name)
	}
	sec.DeepCopyInto(obj.(*corev1.Secret))
	return nil
}

// A memo fed by the namespace Secret informers (secretcache.Cache.Feed)
// against a real API server: the first read of a referenced Secret is
// answered from what the informer's list offered, without a GET; an
// unreferenced Secret's first read and a referenced Secret's read after a
// change go to the server, as without the feed.
func TestFedMemoReadsNoReferencedSecret(t *testing.T) {
	var sc *secretcache.Cache
	newCache := func(cfg *rest.Config, opts cache.Options) (cache.Cache, error) {
		var err error
		sc, err = secretcache.New(cfg, opts, &corev1.LimitRange{})
		return sc, err
	}
	// A LimitRange stands for a CR: its annotation names the Secret it
	// references.
	e := newMemoEnv(t, newCache, func(ctx context.Context, c cache.Cache, memo *secrets.Memo) error {
		sc.Feed(memo)
		return secretcache.IndexReferencedSecrets(ctx, c, &corev1.LimitRange{}, "ref", func(o client.Object) []string {
			return []string{o.GetAnnotations()["ref"]}
		})
	})
	created := map[string]*corev1.Secret{}
	for _, name := range []string{"db", "other"} {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{"password": []byte(name)}}
		if err := e.raw.Create(e.ctx, s); err != nil {
			t.Fatal(err)
		}
		created[name] = s
	}
	cr := &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "cr", Annotations: map[string]string{"ref": "db"}}}
	if err := e.raw.Create(e.ctx, cr); err != nil {
		t.Fatal(err)
	}
	// The namespace's informer starts with the CR; its first list brings
	// both Secrets.
	e.cached("other", created["other"].ResourceVersion)
	e.read("db", "db", 0)
	e.read("other", "other", 1)
	e.read("db", "db", 1)
	db := created["db"]
	db.Data["password"] = []byte("two")
	if err := e.raw.Update(e.ctx, db); err != nil {
		t.Fatal(err)
	}
	e.cached("db", db.ResourceVersion)
	e.read("db", "two", 2)
}

// An offer adds a Secret the memo does not hold and never replaces one it
// read or wrote itself; Forget drops it. Stub server: only the memo's
// bookkeeping is under test.
func TestMemoOfferNeverReplacesWithStubs(t *testing.T) {
	ctx := context.Background()
	server := &storingServer{}
	memo := &secrets.Memo{Client: server, Meta: laggingCache{}}
	key := client.ObjectKey{Namespace: "ns", Name: "s"}
	offered := func(v, rv string) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "s", ResourceVersion: rv}, Data: map[string][]byte{"k": []byte(v)}}
	}
	memo.Offer(offered("informer", ""))
	if memo.Holds(key) {
		t.Fatal("an offer without a resourceVersion was kept")
	}
	memo.Offer(offered("informer", "5"))
	if !memo.Holds(key) {
		t.Fatal("an offer of a Secret the memo did not hold was dropped")
	}
	memo.Forget(key)
	if memo.Holds(key) {
		t.Fatal("Forget kept the Secret")
	}
	if err := memo.Create(ctx, offered("written", "")); err != nil {
		t.Fatal(err)
	}
	memo.Offer(offered("older", "0"))
	// The cache shows the offered version: a memo that took the offer
	// would answer it from memory; one that kept its write (version 1)
	// sees a change and reads the server.
	memo.Meta = cacheAt("0")
	var got corev1.Secret
	if err := memo.Get(ctx, key, &got); err != nil || string(got.Data["k"]) != "written" {
		t.Errorf("after an offer over a written Secret: err %v, data %q, want the written one", err, got.Data["k"])
	}
}

// cacheAt shows every Secret at one resourceVersion.
type cacheAt string

func (c cacheAt) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	obj.SetName(key.Name)
	obj.SetNamespace(key.Namespace)
	obj.SetResourceVersion(string(c))
	return nil
}

func (cacheAt) List(context.Context, client.ObjectList, ...client.ListOption) error { return nil }
