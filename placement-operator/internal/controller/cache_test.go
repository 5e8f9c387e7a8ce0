package controller_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// The cache the manager builds (managerconfig.CacheOptions) against a real API
// server: no cached object keeps its managedFields, every Secret is cached
// (no selector could tell a referenced one) but trimmed to what the watches
// read, and an owned ConfigMap keeps everything else.
func TestCacheTrimsWhatTheOperatorNeverReads(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := namespace(t)
	ownership := map[string]string{
		workload.ManagedByLabel:           render.ManagedBy,
		targetcluster.LabelOwnerKind:      "Placement",
		targetcluster.LabelOwnerName:      "placement",
		targetcluster.LabelOwnerNamespace: ns,
	}
	labels := map[string]string{"team": "cloud"}
	for k, v := range ownership {
		labels[k] = v
	}
	annotations := map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"data":{"password":"eA=="}}`}
	must(t, k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "hand-made",
		Labels: map[string]string{"team": "cloud"}, Annotations: annotations}, StringData: map[string]string{"password": "x"}}))
	must(t, k8s.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "owned",
		Labels: labels, Annotations: annotations}, StringData: map[string]string{"connection": "x"}}))
	must(t, k8s.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "placement-config",
		Labels: labels, Annotations: annotations}, Data: map[string]string{"placement.conf": "x"}}))

	opts := managerconfig.CacheOptions(render.ManagedBy)
	opts.Scheme = schemeForTests()
	c, err := cache.New(cfg, opts)
	must(t, err)
	go func() { _ = c.Start(ctx) }()
	syncCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	if !c.WaitForCacheSync(syncCtx) {
		t.Fatal("cache did not sync")
	}

	secret := func(name string) *metav1.PartialObjectMetadata {
		t.Helper()
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		must(t, c.Get(syncCtx, client.ObjectKey{Namespace: ns, Name: name}, m))
		return m
	}
	for name, wantLabels := range map[string]map[string]string{"hand-made": nil, "owned": ownership} {
		m := secret(name)
		if len(m.ManagedFields) != 0 || m.Annotations != nil {
			t.Errorf("Secret %s: managedFields %v, annotations %v; want neither", name, m.ManagedFields, m.Annotations)
		}
		if len(m.Labels) != len(wantLabels) {
			t.Errorf("Secret %s: labels %v, want %v", name, m.Labels, wantLabels)
		}
		for k, v := range wantLabels {
			if m.Labels[k] != v {
				t.Errorf("Secret %s: labels %v, want %v", name, m.Labels, wantLabels)
			}
		}
		if m.UID == "" || m.ResourceVersion == "" || m.Namespace != ns || m.Name != name {
			t.Errorf("Secret %s: identity lost: %+v", name, m.ObjectMeta)
		}
	}

	var cm corev1.ConfigMap
	must(t, c.Get(syncCtx, client.ObjectKey{Namespace: ns, Name: "placement-config"}, &cm))
	if len(cm.ManagedFields) != 0 {
		t.Errorf("ConfigMap keeps its managedFields: %v", cm.ManagedFields)
	}
	if len(cm.Labels) != len(labels) || cm.Annotations["kubectl.kubernetes.io/last-applied-configuration"] == "" || cm.Data["placement.conf"] != "x" {
		t.Errorf("ConfigMap lost what the operator reads: labels %v, annotations %v, data %v", cm.Labels, cm.Annotations, cm.Data)
	}
}
