package echo

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/c5c3/openstack-operators/common/testenv"
)

// passed records the events a predicate lets through, the way a
// controller's source evaluates it, and holds the informer at the event
// gate names until release is closed.
type passed struct {
	pred    predicate.Predicate
	gate    string
	held    chan struct{}
	release chan struct{}

	mu     sync.Mutex
	events []string
	// added gets a token whenever an event has been recorded.
	added chan struct{}
}

func newPassed(pred predicate.Predicate) *passed {
	return &passed{pred: pred, added: make(chan struct{}, 1)}
}

func (p *passed) add(e string, ok bool) {
	if !ok {
		return
	}
	p.mu.Lock()
	p.events = append(p.events, e)
	p.mu.Unlock()
	select {
	case p.added <- struct{}{}:
	default:
	}
	if e == p.gate {
		close(p.held)
		<-p.release
	}
}

func (p *passed) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.events)
}

// await returns once event e has passed; each recorded event wakes it. The
// minute is a failure deadline, never a wait for something to settle.
func (p *passed) await(t *testing.T, e string) {
	t.Helper()
	limit := time.NewTimer(time.Minute)
	defer limit.Stop()
	for !slices.Contains(p.seen(), e) {
		select {
		case <-p.added:
		case <-limit.C:
			t.Fatalf("%s never passed; passed: %v", e, p.seen())
		}
	}
}

// waitingOn returns a channel closed once an event of w starts waiting for
// a write in flight.
func waitingOn(w *Writes) <-chan struct{} {
	ch := make(chan struct{})
	var once sync.Once
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onWait = func() { once.Do(func() { close(ch) }) }
	return ch
}

// within fails t unless ch closes within a minute (a failure deadline).
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatal(what)
	}
}

func label(o any) string {
	cm := o.(*corev1.ConfigMap)
	return fmt.Sprintf("%s(%s)", cm.Name, cm.Labels["step"])
}

func (p *passed) OnAdd(o any, _ bool) {
	p.add("create "+label(o), p.pred.Create(event.CreateEvent{Object: o.(client.Object)}))
}

func (p *passed) OnUpdate(old, o any) {
	p.add("update "+label(o), p.pred.Update(event.UpdateEvent{ObjectOld: old.(client.Object), ObjectNew: o.(client.Object)}))
}

func (p *passed) OnDelete(o any) {
	if d, ok := o.(toolscache.DeletedFinalStateUnknown); ok {
		o = d.Obj
	}
	p.add("delete "+label(o), p.pred.Delete(event.DeleteEvent{Object: o.(client.Object)}))
}

func configMap(name, step string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "echo", Name: name, Labels: map[string]string{"step": step}}}
}

// TestOwnWritesDoNotReachTheHandler writes a ConfigMap through the
// recording client and through a plain one (another party) and checks which
// informer events the predicate passes: none of the recording client's,
// every one of the other party's, and deletions. The informer delivers an
// object's events in order, and the last event waited for is the other
// party's, so every echo before it has been judged when the list is read.
// The echo of an update is made deterministic by holding the informer at
// the other party's update until the recording client's update has returned
// (in production an echo that beats its write's response only costs a pass).
func TestOwnWritesDoNotReachTheHandler(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	plain, err := client.New(cfg, client.Options{})
	must(t, err)
	writes := &Writes{Scheme: scheme.Scheme}
	own := Client{Client: plain, Writes: writes}
	must(t, plain.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "echo"}}))

	// Written before the informer starts: its initial add is the echo.
	a := configMap("a", "created")
	must(t, own.Create(ctx, a))
	if writes.Len() != 1 {
		t.Fatalf("%d writes recorded after a create, want 1", writes.Len())
	}

	p := newPassed(Predicate(writes))
	p.gate, p.held, p.release = "update a(foreign)", make(chan struct{}), make(chan struct{})
	watchConfigMaps(t, ctx, cfg, p)

	// Another party's update passes and forgets the write; ours, made
	// while the informer is held at that event, is dropped.
	a.Labels["step"] = "foreign"
	must(t, plain.Update(ctx, a))
	select {
	case <-p.held:
	case <-ctx.Done():
		t.Fatal("the other party's update never reached the handler")
	}
	a.Labels["step"] = "own"
	must(t, own.Update(ctx, a))
	close(p.release)

	must(t, plain.Delete(ctx, a))
	must(t, plain.Create(ctx, configMap("b", "foreign")))
	p.await(t, "create b(foreign)")
	want := []string{"update a(foreign)", "delete a(own)", "create b(foreign)"}
	if got := p.seen(); !slices.Equal(got, want) {
		t.Errorf("passed events %v, want %v", got, want)
	}
	if n := writes.Len(); n != 0 {
		t.Errorf("%d writes still recorded after the object was deleted, want 0", n)
	}
}

// slowResponse holds the response of every Create the API server has
// carried out until release is closed: the echo reaches the informer while
// the write is still in flight, as it often does on a loopback.
type slowResponse struct {
	client.Client
	returned chan struct{}
	release  chan struct{}
}

func (s slowResponse) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	err := s.Client.Create(ctx, obj, opts...)
	close(s.returned)
	<-s.release
	return err
}

// TestEchoBeforeTheResponseWaitsForTheWrite: the informer delivers the
// create's event while the create's response is held back; the handler
// must wait for the write to return and then drop its echo, and pass the
// other party's update that follows.
func TestEchoBeforeTheResponseWaitsForTheWrite(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	plain, err := client.New(cfg, client.Options{})
	must(t, err)
	must(t, plain.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "echo"}}))
	writes := &Writes{Scheme: scheme.Scheme}
	slow := slowResponse{Client: plain, returned: make(chan struct{}), release: make(chan struct{})}
	own := Client{Client: slow, Writes: writes}

	p := newPassed(Predicate(writes))
	watchConfigMaps(t, ctx, cfg, p)
	waiting := waitingOn(writes)

	a := configMap("a", "created")
	created := make(chan error, 1)
	go func() { created <- own.Create(ctx, a) }()
	<-slow.returned
	// The echo arrives while the response is held: its event waits.
	within(t, waiting, "no event waits for the write in flight")
	if n := writes.Waiting(); n != 1 {
		t.Fatalf("%d events wait for the write in flight, want 1", n)
	}
	close(slow.release)
	must(t, <-created)

	a.Labels["step"] = "foreign"
	must(t, plain.Update(ctx, a))
	p.await(t, "update a(foreign)")
	if got, want := p.seen(), []string{"update a(foreign)"}; !slices.Equal(got, want) {
		t.Errorf("passed events %v, want %v", got, want)
	}
	if n := writes.Waiting(); n != 0 {
		t.Errorf("%d events still waiting", n)
	}
}

// TestWritesBookkeeping covers what the informer test cannot reach: a nil
// Writes, a failed write, a dry run, and that a match keeps the record for
// the next handler of a shared informer.
func TestWritesBookkeeping(t *testing.T) {
	var none *Writes
	cm := configMap("c", "x")
	cm.UID, cm.ResourceVersion = "u1", "5"
	none.Record(cm)
	if none.Echo(cm) || none.Len() != 0 {
		t.Error("a nil Writes recorded or matched a write")
	}

	w := &Writes{}
	w.Record(cm)
	for i := range 2 {
		if !w.Echo(cm) {
			t.Errorf("handler %d: the recorded version is not an echo", i)
		}
	}
	earlier := cm.DeepCopy()
	earlier.ResourceVersion = "4"
	if w.Echo(earlier) || !w.Echo(cm) {
		t.Error("an event older than the write is an echo, or forgot the write")
	}
	later := cm.DeepCopy()
	later.ResourceVersion = "6"
	if w.Echo(later) {
		t.Error("another version is an echo")
	}
	if w.Echo(cm) || w.Len() != 0 {
		t.Error("the write is still recorded after the object was seen at another version")
	}

	unwritten := configMap("d", "x")
	w.Record(unwritten) // no UID, no version: nothing was written
	if w.Len() != 0 {
		t.Error("an object without UID and version was recorded")
	}
}

// heldCreate is a stub client (no API server: the test needs the write held
// at a point a real server cannot be stopped at) whose Create gives the
// object a UID and version, then waits for release.
type heldCreate struct {
	client.Client
	entered, release chan struct{}
}

func (h heldCreate) Create(_ context.Context, obj client.Object, _ ...client.CreateOption) error {
	obj.SetUID("u-secret")
	obj.SetResourceVersion("7")
	close(h.entered)
	<-h.release
	return nil
}

// TestSecretMetadataEventWaitsForATypedSecretWriteWithAStubClient: the
// owned Secrets' events carry metadata only (PartialObjectMetadata of kind
// Secret) while the operator writes typed Secrets; both must name the same
// object, so the event waits for the write and is then dropped as its echo.
func TestSecretMetadataEventWaitsForATypedSecretWriteWithAStubClient(t *testing.T) {
	w := &Writes{Scheme: scheme.Scheme}
	h := heldCreate{entered: make(chan struct{}), release: make(chan struct{})}
	own := Client{Client: h, Writes: w}
	created := make(chan error, 1)
	go func() {
		created <- own.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "echo", Name: "s"}})
	}()
	<-h.entered

	meta := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "echo", Name: "s", UID: "u-secret", ResourceVersion: "7"}}
	meta.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	waiting := waitingOn(w)
	passed := make(chan bool, 1)
	go func() { passed <- Predicate(w).Create(event.CreateEvent{Object: meta}) }()
	within(t, waiting, "the metadata event did not wait for the typed write in flight")
	close(h.release)
	must(t, <-created)
	if <-passed {
		t.Error("the echo of the typed Secret write passed")
	}
}

// TestFailedAndDryRunWritesAreNotRecorded uses the real API server: a
// create that fails (the name is taken) and a dry-run create leave no
// record.
func TestFailedAndDryRunWritesAreNotRecorded(t *testing.T) {
	_, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	plain, err := client.New(cfg, client.Options{})
	must(t, err)
	w := &Writes{}
	own := Client{Client: plain, Writes: w}
	must(t, plain.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "echo"}}))
	must(t, plain.Create(ctx, configMap("taken", "x")))
	if err := own.Create(ctx, configMap("taken", "x")); err == nil {
		t.Fatal("creating a taken name succeeded")
	}
	dry := configMap("dry", "x")
	must(t, own.Create(ctx, dry, client.DryRunAll))
	if w.Len() != 0 {
		t.Errorf("%d writes recorded from a failed and a dry-run create, want 0", w.Len())
	}
	live := configMap("live", "x")
	must(t, own.Create(ctx, live))
	must(t, own.Patch(ctx, live, client.RawPatch("application/merge-patch+json", []byte(`{"data":{"k":"v"}}`))))
	if !w.Echo(live) {
		t.Error("the version a patch left the object at is not recorded")
	}
}

// watchConfigMaps starts an informer on the ConfigMaps of namespace echo
// with p as its handler and waits until it has synced.
func watchConfigMaps(t *testing.T, ctx context.Context, cfg *rest.Config, p *passed) {
	t.Helper()
	c, err := cache.New(cfg, cache.Options{DefaultNamespaces: map[string]cache.Config{"echo": {}}})
	must(t, err)
	inf, err := c.GetInformer(ctx, &corev1.ConfigMap{})
	must(t, err)
	_, err = inf.AddEventHandler(p)
	must(t, err)
	go func() { _ = c.Start(ctx) }()
	if !c.WaitForCacheSync(ctx) {
		t.Fatal("cache did not sync")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
