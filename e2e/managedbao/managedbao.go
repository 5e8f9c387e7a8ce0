// Package managedbao plays the OpenBao operator for the Barbican suites: it
// brings up a managed store's instance as that operator leaves it, on a
// real OpenBao-compatible server.
package managedbao

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// Host is the Service name of the managed instance name in ns,
// the host the operator renders into a managed store's URL.
func Host(ns, name string) string { return name + "." + ns + ".svc" }

// Start brings up the managed OpenBao instance name in ns as the
// OpenBao operator leaves it, for a suite outside this module: a real
// server on address (host:port) with a certificate for Host, set up
// as the instance's self-init sets it up (KV mount, AppRole with secret IDs
// living ttl, Kubernetes auth reviewing tokens against cfg's API server),
// and, written with c, the provisioner ServiceAccount, the CA Secret and the
// OpenBaoCluster marked Available. The server stops when t ends; any
// failure fails t.
func Start(t testing.TB, c client.Client, cfg *rest.Config, ns, name, address string, ttl time.Duration) *openbao.Server {
	t.Helper()
	ctx := context.Background()
	srv := openbao.StartWith(t, openbao.Options{DNSNames: []string{Host(ns, name)}, Address: address})
	kube, err := openbao.NewKube(cfg)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := kube.ManagedOptions(ctx, ns, name, ttl)
	if err == nil {
		err = srv.ConfigureManaged(ctx, opts)
	}
	if err == nil {
		err = kube.CreateServiceAccount(ctx, ns, barbican.ProvisionerName(name))
	}
	if err == nil {
		err = c.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: barbican.InstanceCASecretName(name)},
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
	u.SetGroupVersionKind(barbican.InstanceGVK)
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

// Store is the default store name of the Barbican named barbicanName on
// the instance.
func Store(ns, name, barbicanName, instance string) *barbicanv1.BarbicanSecretStore {
	return &barbicanv1.BarbicanSecretStore{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: barbicanv1.BarbicanSecretStoreSpec{
			BarbicanRef: barbicanv1.BarbicanRef{Name: barbicanName}, Type: barbicanv1.StoreOpenBao, IsDefault: true,
			OpenBao: &barbicanv1.OpenBaoSpec{InstanceRef: &barbicanv1.InstanceRef{Name: instance}},
		},
	}
}
