package configartifact_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Secret artefacts against a real API server: created immutable and owned,
// found again through a metadata read (no Secret data read), a foreign
// same-named Secret refused, history pruned to the newest Keep.
func TestSecretArtefacts(t *testing.T) {
	env, cfg, err := testenv.Start(testenv.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	scheme := managerconfig.NewScheme()
	raw, err := client.NewWithWatch(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	var w testenv.Writes
	var dataReads int
	c := interceptor.NewClient(raw, testenv.CountWrites(&w, interceptor.Funcs{
		Get: func(ctx context.Context, c client.WithWatch, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
			if _, ok := obj.(*corev1.Secret); ok {
				dataReads++
			}
			return c.Get(ctx, key, obj, opts...)
		},
	}))
	ctx := context.Background()
	const ns = "openstack"
	if err := raw.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		t.Fatal(err)
	}
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "glance", Namespace: ns}}
	if err := raw.Create(ctx, owner); err != nil {
		t.Fatal(err)
	}
	o := apply.Owner{Object: owner, Kind: "Glance", Scheme: scheme}
	labels := map[string]string{"app.kubernetes.io/managed-by": "glance-operator"}

	var names []string
	for i := range 5 {
		s := configartifact.BuildSecret(ns, "glance-backends", labels, map[string]string{"backends.conf": fmt.Sprintf("[s3-%d]\n", i)})
		if err := configartifact.EnsureSecret(ctx, c, raw, o, s); err != nil {
			t.Fatalf("configartifact.EnsureSecret %d: %v", i, err)
		}
		names = append(names, s.Name)
		before := w
		if err := configartifact.EnsureSecret(ctx, c, raw, o, configartifact.BuildSecret(ns, "glance-backends", labels, map[string]string{"backends.conf": fmt.Sprintf("[s3-%d]\n", i)})); err != nil {
			t.Fatalf("configartifact.EnsureSecret %d again: %v", i, err)
		}
		if w.Total() != before.Total() {
			t.Errorf("second configartifact.EnsureSecret of generation %d wrote %d times", i, w.Total()-before.Total())
		}
		// Distinct creation timestamps order the generations.
		time.Sleep(1100 * time.Millisecond)
	}
	if dataReads != 0 {
		t.Errorf("%d typed Secret reads; existence must be read as metadata", dataReads)
	}
	var live corev1.Secret
	if err := raw.Get(ctx, client.ObjectKey{Namespace: ns, Name: names[4]}, &live); err != nil {
		t.Fatal(err)
	}
	if live.Immutable == nil || !*live.Immutable || string(live.Data["backends.conf"]) != "[s3-4]\n" || !o.Owns(&live) {
		t.Errorf("live Secret = immutable %v, data %q, owned %v", live.Immutable, live.Data, o.Owns(&live))
	}

	if err := configartifact.PruneSecrets(ctx, c, o, ns, "glance-backends", names[4]); err != nil {
		t.Fatal(err)
	}
	var list corev1.SecretList
	if err := raw.List(ctx, &list, client.InNamespace(ns), client.MatchingLabels{configartifact.BaseLabel: "glance-backends"}); err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, s := range list.Items {
		if s.DeletionTimestamp.IsZero() {
			left = append(left, s.Name)
		}
	}
	slices.Sort(left)
	want := slices.Sorted(slices.Values(names[2:]))
	if !slices.Equal(left, want) {
		t.Errorf("after pruning: %v, want the newest three %v", left, want)
	}

	foreign := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: configartifact.Name("foreign", map[string]string{"k": "v"}), Namespace: ns}, Data: map[string][]byte{"k": []byte("other")}}
	if err := raw.Create(ctx, foreign); err != nil {
		t.Fatal(err)
	}
	if err := configartifact.EnsureSecret(ctx, c, raw, o, configartifact.BuildSecret(ns, "foreign", labels, map[string]string{"k": "v"})); err == nil {
		t.Error("a foreign Secret with the artefact's name was accepted")
	}
}
