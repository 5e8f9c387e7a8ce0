package secretcache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// recorder is a Secret event handler that keeps what it got, as
// "<event> <namespace>/<name>" lines.
type recorder struct {
	mu  sync.Mutex
	got []string
}

func (r *recorder) add(event string, obj any) {
	o := obj.(client.Object)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, fmt.Sprintf("%s %s/%s", event, o.GetNamespace(), o.GetName()))
}

func (r *recorder) OnAdd(obj any, _ bool) { r.add("add", obj) }
func (r *recorder) OnUpdate(_, obj any)   { r.add("update", obj) }
func (r *recorder) OnDelete(obj any)      { r.add("delete", obj) }

func (r *recorder) events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func (r *recorder) has(line string) bool { return slices.Contains(r.events(), line) }

// in are the events of namespace ns.
func (r *recorder) in(ns string) []string {
	var out []string
	for _, l := range r.events() {
		if _, obj, _ := strings.Cut(l, " "); strings.HasPrefix(obj, ns+"/") {
			out = append(out, l)
		}
	}
	return out
}

// eventually polls cond until it holds; a busy machine only slows it down,
// so the bound is generous and the failure names what was awaited.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSecretInformersFollowTrackedObjects(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	must(t, err)
	for _, ns := range []string{"with-cr", "without-cr"} {
		must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
		must(t, c.Create(ctx, secret(ns, "s")))
	}

	// LimitRanges stand in for the operator's CRs: a typed namespaced kind
	// of which the API server makes none itself (every namespace gets a
	// ConfigMap).
	sc := start(t, ctx, cfg, &corev1.LimitRange{})
	inf, err := sc.GetInformer(ctx, secretMeta())
	must(t, err)
	early := &recorder{}
	reg, err := inf.AddEventHandler(early)
	must(t, err)
	if got := sc.Namespaces(); len(got) != 0 {
		t.Fatalf("Secret informers before any tracked object: %v", got)
	}
	if !reg.HasSynced() {
		t.Error("a handler with no namespace informer to wait for is not synced")
	}

	// Without an informer, metadata reads go to the API server.
	meta := secretMeta()
	must(t, sc.Get(ctx, client.ObjectKey{Namespace: "without-cr", Name: "s"}, meta))
	if meta.ResourceVersion == "" {
		t.Fatal("live read of Secret metadata without a resourceVersion")
	}

	// A tracked object starts its namespace's informer, whose initial list
	// reaches the handler added before.
	must(t, c.Create(ctx, tracked("with-cr", "a")))
	eventually(t, "the informer of namespace with-cr", func() bool { return slices.Equal(sc.Namespaces(), []string{"with-cr"}) })
	eventually(t, "the initial add of with-cr/s", func() bool { return early.has("add with-cr/s") })
	eventually(t, "the handler synced", reg.HasSynced)
	if n := sc.Len(); n != 1 {
		t.Errorf("the informers hold %d Secrets, want 1 (with-cr/s)", n)
	}

	// A Secret change where no tracked object is never reaches a handler:
	// updated first, before one with a tracked object, whose event arrives.
	bump(t, ctx, c, "without-cr", "s")
	bump(t, ctx, c, "with-cr", "s")
	eventually(t, "the update of with-cr/s", func() bool { return early.has("update with-cr/s") })
	if got := early.in("without-cr"); len(got) != 0 {
		t.Errorf("events from a namespace without a tracked object: %v", got)
	}

	// Reads in a namespace with an informer come from it: the object the
	// API server has is the one read, once the informer has the update.
	want := secretMeta()
	must(t, c.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "s"}, want))
	eventually(t, "the informer's read of the update", func() bool {
		got := secretMeta()
		return sc.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "s"}, got) == nil && got.ResourceVersion == want.ResourceVersion
	})
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(secretListGVK)
	must(t, sc.List(ctx, list, client.InNamespace("with-cr")))
	if len(list.Items) != 1 || list.Items[0].Name != "s" {
		t.Errorf("namespace list: %v", list.Items)
	}
	// Across namespaces the list is the API server's: both Secrets.
	must(t, sc.List(ctx, list))
	if names := itemNames(list); !slices.Contains(names, "with-cr/s") || !slices.Contains(names, "without-cr/s") {
		t.Errorf("list across namespaces: %v", names)
	}

	// A handler added once an informer runs gets its initial list too.
	late := &recorder{}
	_, err = inf.AddEventHandler(late)
	must(t, err)
	eventually(t, "the late handler's add of with-cr/s", func() bool { return late.has("add with-cr/s") })

	// A second tracked object keeps the informer when the first goes.
	must(t, c.Create(ctx, tracked("with-cr", "b")))
	eventually(t, "the second tracked object in the cache", func() bool {
		return sc.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "b"}, &corev1.LimitRange{}) == nil
	})
	must(t, c.Delete(ctx, tracked("with-cr", "a")))
	eventually(t, "the first tracked object gone from the cache", func() bool {
		return sc.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "a"}, &corev1.LimitRange{}) != nil
	})
	if got := sc.Namespaces(); !slices.Equal(got, []string{"with-cr"}) {
		t.Fatalf("informers with one tracked object left: %v", got)
	}

	// The last one stops it; reads go to the API server again.
	must(t, c.Delete(ctx, tracked("with-cr", "b")))
	eventually(t, "the informer of with-cr stopped", func() bool { return len(sc.Namespaces()) == 0 })
	bump(t, ctx, c, "with-cr", "s")
	must(t, c.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "s"}, want))
	got := secretMeta()
	must(t, sc.Get(ctx, client.ObjectKey{Namespace: "with-cr", Name: "s"}, got))
	if got.ResourceVersion != want.ResourceVersion {
		t.Errorf("read after the informer stopped: resourceVersion %s, the API server has %s", got.ResourceVersion, want.ResourceVersion)
	}
}

func TestSecretInformerUsesTheSecretTransform(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	must(t, err)
	must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}))
	s := secret("ns", "s")
	s.Annotations = map[string]string{"big": "annotation"}
	must(t, c.Create(ctx, s))
	dropAnnotations := func(in any) (any, error) {
		if m, ok := in.(*metav1.PartialObjectMetadata); ok {
			m.Annotations = nil
		}
		return in, nil
	}
	sc := startWith(t, ctx, cfg, cache.Options{ByObject: map[client.Object]cache.ByObject{
		&corev1.Secret{}: {Transform: dropAnnotations, Namespaces: map[string]cache.Config{"elsewhere": {}}},
	}}, &corev1.LimitRange{})
	must(t, c.Create(ctx, tracked("ns", "a")))
	eventually(t, "the informer of ns", func() bool { return len(sc.Namespaces()) == 1 })
	got := secretMeta()
	// The first read waits for the informer to sync: no retry needed.
	must(t, sc.Get(ctx, client.ObjectKey{Namespace: "ns", Name: "s"}, got))
	if got.Annotations != nil {
		t.Errorf("the Secrets' transform did not run: annotations %v", got.Annotations)
	}
	if got.UID != s.UID {
		t.Errorf("uid %s, want %s", got.UID, s.UID)
	}
}

func TestOnlySecretMetadataIsSplit(t *testing.T) {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(secretListGVK)
	cm := &metav1.PartialObjectMetadata{}
	cm.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	for _, c := range []struct {
		obj  runtime.Object
		want bool
	}{{secretMeta(), true}, {list, true}, {&corev1.Secret{}, false}, {&corev1.SecretList{}, false}, {cm, false}} {
		if got := secretMetadata(c.obj); got != c.want {
			t.Errorf("%T %v: split %v, want %v", c.obj, c.obj.GetObjectKind().GroupVersionKind(), got, c.want)
		}
	}
}

func start(t *testing.T, ctx context.Context, cfg *rest.Config, tracked ...client.Object) *Cache {
	return startWith(t, ctx, cfg, cache.Options{}, tracked...)
}

func startB(b *testing.B, ctx context.Context, cfg *rest.Config) *Cache {
	return startWith(b, ctx, cfg, cache.Options{}, &corev1.LimitRange{})
}

func startWith(t testing.TB, ctx context.Context, cfg *rest.Config, opts cache.Options, tracked ...client.Object) *Cache {
	t.Helper()
	opts.Scheme = scheme.Scheme
	sc, err := New(cfg, opts, tracked...)
	must(t, err)
	run(t, ctx, sc)
	return sc
}

// run starts sc until the test ends and waits for it to sync.
func run(t testing.TB, ctx context.Context, sc *Cache) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- sc.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("cache: %v", err)
		}
	})
	if !sc.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
}

func secret(ns, name string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: map[string]string{"k": "v"}}
}

func tracked(ns, name string) *corev1.LimitRange {
	return &corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// bump changes a Secret's data, so its resourceVersion moves.
func bump(t *testing.T, ctx context.Context, c client.Client, ns, name string) {
	t.Helper()
	s := &corev1.Secret{}
	must(t, c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, s))
	s.Data["k"] = append(s.Data["k"], 'x')
	must(t, c.Update(ctx, s))
}

func itemNames(l *metav1.PartialObjectMetadataList) []string {
	var out []string
	for _, i := range l.Items {
		out = append(out, i.Namespace+"/"+i.Name)
	}
	return out
}

var _ toolscache.ResourceEventHandler = &recorder{}

// Objects that exist when the cache starts have their namespace informers
// running and synced once WaitForCacheSync returns: controllers start on a
// complete Secret watch, as with a cluster-wide informer.
func TestStartSyncsTheInformersOfExistingObjects(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	must(t, err)
	var want []string
	for i := range 5 {
		ns := fmt.Sprintf("early-%d", i)
		want = append(want, ns)
		must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
		must(t, c.Create(ctx, secret(ns, "s")))
		must(t, c.Create(ctx, tracked(ns, "cr")))
	}
	sc := start(t, ctx, cfg, &corev1.LimitRange{})
	if got := sc.Namespaces(); !slices.Equal(got, want) {
		t.Fatalf("informers after WaitForCacheSync: %v, want %v", got, want)
	}
	inf, err := sc.GetInformer(ctx, secretMeta())
	must(t, err)
	if !inf.HasSynced() {
		t.Error("Secret informer not synced after WaitForCacheSync")
	}
	if n := sc.Len(); n != len(want) {
		t.Errorf("the informers hold %d Secrets, want %d", n, len(want))
	}
}

// A namespace informer stopped before its first list (its last tracked
// object gone at once) is skipped: reads in its namespace go live and
// WaitForCacheSync does not fail on it.
func TestStoppedInformerFallsBackToLiveReads(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	must(t, err)
	must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "gone"}}))
	must(t, c.Create(ctx, secret("gone", "s")))
	sc := start(t, ctx, cfg, &corev1.LimitRange{})

	// Start it with its context already cancelled: it never lists.
	sc.mu.Lock()
	ctxBefore := sc.ctx
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	sc.ctx = cancelled
	sc.startShard("gone")
	sc.ctx = ctxBefore
	s := sc.shards["gone"]
	sc.mu.Unlock()
	<-s.done
	if err := s.wait(ctx); !errors.Is(err, errStopped) {
		t.Fatalf("wait on an informer stopped before its list: %v, want errStopped", err)
	}
	got := secretMeta()
	must(t, sc.Get(ctx, client.ObjectKey{Namespace: "gone", Name: "s"}, got))
	if got.Name != "s" || got.ResourceVersion == "" {
		t.Errorf("live read: %v", got.ObjectMeta)
	}
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(secretListGVK)
	must(t, sc.List(ctx, list, client.InNamespace("gone")))
	if names := itemNames(list); !slices.Equal(names, []string{"gone/s"}) {
		t.Errorf("live list: %v", names)
	}
	if !sc.WaitForCacheSync(ctx) {
		t.Error("WaitForCacheSync failed on an informer that stopped")
	}
}

func TestNoTypedSecretInformer(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	sc := start(t, ctx, cfg, &corev1.LimitRange{})
	if _, err := sc.GetInformerForKind(ctx, secretGVK); err == nil {
		t.Error("GetInformerForKind(Secret) built an informer: a typed one caches Secret data cluster-wide")
	}
	if _, err := sc.GetInformerForKind(ctx, corev1.SchemeGroupVersion.WithKind("LimitRange")); err != nil {
		t.Errorf("another kind: %v", err)
	}
}

// sink records the Secrets offered to it; it holds what it was offered and
// the names in held.
type sink struct {
	mu        sync.Mutex
	held      map[string]bool
	offered   []string
	forgotten []string
}

func (s *sink) Forget(key client.ObjectKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forgotten = append(s.forgotten, key.Name)
	delete(s.held, key.Name)
}

func (s *sink) gone() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.forgotten)
}

func (s *sink) Holds(key client.ObjectKey) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.held[key.Name]
}

func (s *sink) Offer(sec *corev1.Secret) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.offered = append(s.offered, fmt.Sprintf("%s=%s", sec.Name, sec.Data["k"]))
	s.held[sec.Name] = true
}

func (s *sink) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.offered)
}

// refsAnnotation lists, comma-separated, the Secrets a tracked object
// references in the tests' reference index.
const refsAnnotation = "refs"

func indexRefs(o client.Object) []string {
	if v := o.GetAnnotations()[refsAnnotation]; v != "" {
		return strings.Split(v, ",")
	}
	return nil
}

// The namespace informers offer the sink the data of the Secrets a tracked
// object names in a reference index, from their first list and from their
// watch, and nothing else: not an unreferenced Secret, not one the sink
// holds already, not a later version of one it took; and they tell it of a
// Secret deleted.
func TestReferencedSecretsAreOffered(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	must(t, err)
	must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "ns"}}))
	for _, name := range []string{"listed", "unreferenced", "held"} {
		must(t, c.Create(ctx, secret("ns", name)))
	}
	sc, err := New(cfg, cache.Options{Scheme: scheme.Scheme}, &corev1.LimitRange{})
	must(t, err)
	must(t, IndexReferencedSecrets(ctx, sc, &corev1.LimitRange{}, "refs", indexRefs))
	rec := &sink{held: map[string]bool{"held": true}}
	sc.Feed(rec)
	run(t, ctx, sc)
	events := &recorder{}
	inf, err := sc.GetInformer(ctx, secretMeta())
	must(t, err)
	_, err = inf.AddEventHandler(events)
	must(t, err)

	cr := tracked("ns", "cr")
	cr.Annotations = map[string]string{refsAnnotation: "listed,held,watched"}
	must(t, c.Create(ctx, cr))
	eventually(t, "the first list of ns", func() bool { return events.has("add ns/unreferenced") })
	if got, want := rec.got(), []string{"listed=v"}; !slices.Equal(got, want) {
		t.Errorf("offered from the first list: %v, want %v", got, want)
	}
	watched := secret("ns", "watched")
	watched.StringData = map[string]string{"k": "w"}
	must(t, c.Create(ctx, watched))
	bump(t, ctx, c, "ns", "listed")
	// An unreferenced Secret's event after the others': once it is seen,
	// the informer has judged every Secret above.
	must(t, c.Create(ctx, secret("ns", "last")))
	eventually(t, "the watch's events", func() bool { return events.has("add ns/last") })
	if got, want := rec.got(), []string{"listed=v", "watched=w"}; !slices.Equal(got, want) {
		t.Errorf("offered: %v, want %v (a Secret created later once, nothing held again)", got, want)
	}
	must(t, c.Delete(ctx, secret("ns", "listed")))
	eventually(t, "the deletion's event", func() bool { return events.has("delete ns/listed") })
	if got := rec.gone(); !slices.Equal(got, []string{"listed"}) {
		t.Errorf("forgotten: %v, want the deleted Secret", got)
	}
	// The informer keeps metadata only.
	for _, obj := range sc.shard("ns").store.List() {
		if _, ok := obj.(*metav1.PartialObjectMetadata); !ok {
			t.Errorf("the informer holds a %T, want metadata only", obj)
		}
	}
}
