package inprocess

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// InstanceHost is the Service name of the managed instance name in ns,
// the host the operator renders into a managed store's URL.
func InstanceHost(ns, name string) string { return name + "." + ns + ".svc" }

// StartInstance brings up the managed OpenBao instance name in ns as the
// OpenBao operator leaves it, for a suite outside this module: a real
// server on address (host:port) with a certificate for InstanceHost, set up
// as the instance's self-init sets it up (KV mount, AppRole with secret IDs
// living ttl, Kubernetes auth reviewing tokens against cfg's API server),
// and, written with c, the provisioner ServiceAccount, the CA Secret and the
// OpenBaoCluster marked Available. The server stops when t ends; any
// failure fails t.
func StartInstance(t testing.TB, c client.Client, cfg *rest.Config, ns, name, address string, ttl time.Duration) *openbao.Server {
	t.Helper()
	ctx := context.Background()
	srv := openbao.StartWith(t, openbao.Options{DNSNames: []string{InstanceHost(ns, name)}, Address: address})
	kube, err := openbao.NewKube(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := kube.ManagedOptions(ctx, ns, name, ttl)
	if err == nil {
		err = srv.ConfigureManaged(ctx, opts)
	}
	if err == nil {
		err = kube.CreateServiceAccount(ctx, ns, ProvisionerName(name))
	}
	if err == nil {
		err = c.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: InstanceCASecretName(name)},
			StringData: map[string]string{"ca.crt": string(srv.CAPEM)}})
	}
	if err == nil {
		err = createAvailable(ctx, c, ns, name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// createAvailable creates the OpenBaoCluster and marks it Available.
func createAvailable(ctx context.Context, c client.Client, ns, name string) error {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(InstanceGVK)
	u.SetNamespace(ns)
	u.SetName(name)
	if err := c.Create(ctx, u); err != nil {
		return err
	}
	cond := map[string]any{"type": "Available", "status": "True", "reason": "Ready", "message": "set by the test",
		"lastTransitionTime": metav1.Now().UTC().Format(time.RFC3339)}
	if err := unstructured.SetNestedSlice(u.Object, []any{cond}, "status", "conditions"); err != nil {
		return err
	}
	return c.Status().Update(ctx, u)
}

// ManagedStore is the default store name of barbican on the instance.
func ManagedStore(ns, name, barbican, instance string) *barbicanv1.BarbicanSecretStore {
	return fixture.ManagedStore(ns, name, barbican, instance, true)
}
