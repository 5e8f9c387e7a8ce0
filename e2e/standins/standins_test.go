package standins_test

import (
	"context"

	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/standins"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The stand-ins run against a real kube-apiserver loaded with the real ESO
// and mariadb-operator CRDs, so status writes pass the real schemas.
var cfg *rest.Config

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{WithoutGatewayAPI: true}, &cfg))
}

// writeCounter counts mutating requests, to prove a settled pass writes nothing.
type writeCounter struct {
	mu    sync.Mutex
	calls []string
}

func (w *writeCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method != http.MethodGet {
			w.mu.Lock()
			w.calls = append(w.calls, req.Method+" "+req.URL.Path)
			w.mu.Unlock()
		}
		return rt.RoundTrip(req)
	})
}

func (w *writeCounter) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.calls
	w.calls = nil
	return out
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func newClient(t *testing.T, wrap func(http.RoundTripper) http.RoundTripper) client.Client {
	t.Helper()
	scheme, err := standins.NewScheme()
	must(t, err)
	c := rest.CopyConfig(cfg)
	if wrap != nil {
		c.Wrap(wrap)
	}
	k, err := client.New(c, client.Options{Scheme: scheme})
	must(t, err)
	return k
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fixture creates one object of every kind, all named name, none Ready; the
// cluster store and the MariaDB start with Ready=False as a failing real
// controller would leave them.
func fixture(t *testing.T, k client.Client, ns, name string) {
	t.Helper()
	ctx := context.Background()
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, testenv.SecretStore(ctx, k, "", name, false))
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(standins.SecretStoreGVK)
	store.SetNamespace(ns)
	store.SetName(name)
	store.Object["spec"] = map[string]any{"provider": map[string]any{"fake": map[string]any{"data": []any{}}}}
	must(t, k.Create(ctx, store))
	must(t, testenv.MariaDB(ctx, k, ns, name, false))
	ref := mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: name}}
	meta := metav1.ObjectMeta{Namespace: ns, Name: name}
	must(t, k.Create(ctx, &mariadbv1alpha1.Database{ObjectMeta: meta, Spec: mariadbv1alpha1.DatabaseSpec{MariaDBRef: ref}}))
	must(t, k.Create(ctx, &mariadbv1alpha1.User{ObjectMeta: meta, Spec: mariadbv1alpha1.UserSpec{MariaDBRef: ref}}))
	must(t, k.Create(ctx, &mariadbv1alpha1.Grant{ObjectMeta: meta, Spec: mariadbv1alpha1.GrantSpec{
		MariaDBRef: ref, Privileges: []string{"ALL PRIVILEGES"}, Database: name, Table: "*", Username: name,
	}}))
}

// expectation is one kind and the Ready condition its real controller writes.
type expectation struct {
	gvk             schema.GroupVersionKind
	namespaced      bool
	reason, message string
}

var expected = []expectation{
	{standins.ClusterSecretStoreGVK, false, "Valid", "store validated"},
	{standins.SecretStoreGVK, true, "Valid", "store validated"},
	{mariadbv1alpha1.GroupVersion.WithKind("MariaDB"), true, "StatefulSetReady", "Running"},
	{mariadbv1alpha1.GroupVersion.WithKind("Database"), true, "Created", "Created"},
	{mariadbv1alpha1.GroupVersion.WithKind("User"), true, "Created", "Created"},
	{mariadbv1alpha1.GroupVersion.WithKind("Grant"), true, "Created", "Created"},
}

// readyCondition reads status.conditions[type=Ready] of any kind.
func readyCondition(k client.Client, e expectation, ns, name string) (map[string]any, []any, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(e.gvk)
	key := types.NamespacedName{Name: name}
	if e.namespaced {
		key.Namespace = ns
	}
	if err := k.Get(context.Background(), key, u); err != nil {
		return nil, nil, err
	}
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Ready" {
			return m, conds, nil
		}
	}
	return nil, conds, fmt.Errorf("%s %s has no Ready condition", e.gvk.Kind, key)
}

func checkReady(k client.Client, ns, name string) error {
	for _, e := range expected {
		c, conds, err := readyCondition(k, e, ns, name)
		if err != nil {
			return err
		}
		if c["status"] != "True" || c["reason"] != e.reason || c["message"] != e.message {
			return fmt.Errorf("%s Ready = %v, want True/%s/%s", e.gvk.Kind, c, e.reason, e.message)
		}
		if len(conds) != 1 {
			return fmt.Errorf("%s has %d conditions, want exactly one Ready: %v", e.gvk.Kind, len(conds), conds)
		}
	}
	return nil
}

// pass runs every stand-in once over its object: the cluster-scoped store by
// name, every other kind by namespace and name.
func pass(t *testing.T, all []standins.StandIn, ns, name string) {
	t.Helper()
	for _, r := range all {
		key := types.NamespacedName{Namespace: ns, Name: name}
		if s, ok := r.(*standins.SecretStore); ok && s.GVK == standins.ClusterSecretStoreGVK {
			key.Namespace = ""
		}
		if _, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: key}); err != nil {
			t.Fatalf("%T %s: %v", r, key, err)
		}
	}
}

func TestPassFlipsEveryKindOnceThenWritesNothing(t *testing.T) {
	const ns, name = "direct", "one"
	fixture(t, newClient(t, nil), ns, name)
	var writes writeCounter
	all := standins.All(newClient(t, writes.wrap), nil)

	pass(t, all, ns, name)
	must(t, checkReady(newClient(t, nil), ns, name))
	if got := writes.take(); len(got) != len(expected) {
		t.Fatalf("first pass wrote %d times, want one status patch per kind (%d): %v", len(got), len(expected), got)
	}

	pass(t, all, ns, name)
	if got := writes.take(); len(got) != 0 {
		t.Fatalf("second pass over Ready objects wrote: %v", got)
	}
}

func TestManagerMarksNewObjectsReady(t *testing.T) {
	scheme, err := standins.NewScheme()
	must(t, err)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
	})
	must(t, err)
	must(t, standins.SetupWithManager(mgr, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = mgr.Start(ctx) }()

	const ns, name = "watched", "two"
	k := newClient(t, nil)
	fixture(t, k, ns, name)
	deadline := time.Now().Add(30 * time.Second)
	for err = checkReady(k, ns, name); err != nil; err = checkReady(k, ns, name) {
		if time.Now().After(deadline) {
			t.Fatalf("stand-ins did not mark every kind Ready: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
