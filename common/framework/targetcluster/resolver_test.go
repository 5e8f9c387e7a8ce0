package targetcluster_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// On a real kube-apiserver that registers itself as the target cluster
// "remote": a cluster stays engaged while any CR resolved it, and is
// disengaged when the last one is released, deleted or stops naming it.
func TestResolverEngagesWhileUsed(t *testing.T) {
	env, cfg, ctx := testenv.StartForTest(t, testenv.Options{WithoutGatewayAPI: true})
	k8s, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	registerSelf(t, ctx, env, k8s)

	var mu sync.Mutex
	engagements := 0
	r := &targetcluster.Resolver{
		Namespace: "clusters", Reader: k8s, Scheme: scheme.Scheme,
		OnEngage: func(string, cluster.Cluster) error {
			mu.Lock()
			defer mu.Unlock()
			engagements++
			return nil
		},
	}
	go func() { _ = r.Start(ctx) }()
	engaged := func(want ...string) {
		t.Helper()
		if got := r.Engaged(); !slices.Equal(got, want) {
			t.Fatalf("engaged clusters = %v, want %v", got, want)
		}
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return engagements
	}
	ref := &serviceapi.TargetClusterRef{Name: "remote"}
	a, b := client.ObjectKey{Namespace: "x", Name: "a"}, client.ObjectKey{Namespace: "y", Name: "a"}

	ta, err := r.Resolve(ctx, a, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !ta.Remote() {
		t.Fatalf("target %+v is not remote", ta)
	}
	var ns corev1.Namespace
	if err := ta.Client.Get(ctx, client.ObjectKey{Name: "clusters"}, &ns); err != nil {
		t.Fatalf("reading through the engaged cluster: %v", err)
	}
	if _, err := r.Resolve(ctx, b, ref); err != nil {
		t.Fatal(err)
	}
	engaged("remote")
	if n := count(); n != 1 {
		t.Fatalf("%d engagements for two CRs on one cluster, want 1", n)
	}

	r.Release(a)
	engaged("remote") // b still uses it
	// b stops naming a cluster (the local target): nobody uses "remote".
	if local, err := r.Resolve(ctx, b, nil); err != nil || local.Remote() {
		t.Fatalf("nil ref resolved to %+v, %v", local, err)
	}
	engaged()

	// Used again: a new engagement; a deleted CR releases it.
	if _, err := r.Resolve(ctx, a, ref); err != nil {
		t.Fatal(err)
	}
	engaged("remote")
	if n := count(); n != 2 {
		t.Fatalf("%d engagements, want 2 (re-engaged after the release)", n)
	}
	r.Release(a)
	engaged()
	r.Release(a) // releasing twice is harmless
	engaged()
}

// registerSelf writes the registration Secret "remote" with a kubeconfig for
// env itself.
func registerSelf(t *testing.T, ctx context.Context, env *envtest.Environment, k8s client.Client) {
	t.Helper()
	user, err := env.AddUser(envtest.User{Name: "operator", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "clusters"}}); err != nil {
		t.Fatal(err)
	}
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: "clusters", Name: "remote",
			Labels: map[string]string{targetcluster.RegistrationLabel: targetcluster.RegistrationLabelValue}},
		Data: map[string][]byte{targetcluster.KubeconfigKey: kubeconfig},
	}
	if err := k8s.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// AlsoOnEngage chains the hooks in the order they were added; the first
// error stops the chain and is the engagement's error.
func TestAlsoOnEngageChains(t *testing.T) {
	var r targetcluster.Resolver
	var calls []string
	boom := errors.New("boom")
	r.AlsoOnEngage(func(name string, _ cluster.Cluster) error { calls = append(calls, "first "+name); return nil })
	r.AlsoOnEngage(func(name string, _ cluster.Cluster) error { calls = append(calls, "second "+name); return boom })
	r.AlsoOnEngage(func(name string, _ cluster.Cluster) error { calls = append(calls, "third "+name); return nil })
	if err := r.OnEngage("east", nil); !errors.Is(err, boom) {
		t.Errorf("error %v, want %v", err, boom)
	}
	if want := []string{"first east", "second east"}; !slices.Equal(calls, want) {
		t.Errorf("calls %v, want %v", calls, want)
	}
}
