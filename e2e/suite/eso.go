package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// The real External Secrets Operator (hack/tools.sh external-secrets, built
// from its own module) runs beside each cluster with the fake provider:
// the default ClusterSecretStore holds every credential, and each site's
// credential Secrets are written by ExternalSecrets, as in production.

var (
	esoGV        = schema.GroupVersion{Group: "external-secrets.io", Version: "v1"}
	clusterStore = esoGV.WithKind("ClusterSecretStore")
)

// ESO is the ESO controller of one cluster, started again whenever it
// exits on its own, as the kubelet restarts its pod: ESO v0.16.2 can die at
// start-up ("fatal error: concurrent map read and map write" in its
// controllers' start), which left a whole suite without ExternalSecrets.
type ESO struct {
	start func(restart int) (*localsvc.Proc, error)

	mu       sync.Mutex
	proc     *localsvc.Proc
	stopped  bool
	restarts int
}

// StartESO runs the ESO controller against c; only the reconcilers of the
// kinds the suite uses are on.
func StartESO(c *cluster.Cluster) (*ESO, error) {
	bin, err := c.Tool("external-secrets")
	if err != nil {
		return nil, err
	}
	// Only the reconcilers of the kinds in use, as make run has them.
	flags, err := os.ReadFile(filepath.Join(c.Root(), "hack", "eso.flags"))
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(c.Kubeconfig)
	e := &ESO{start: func(restart int) (*localsvc.Proc, error) {
		port, err := localsvc.FreePort()
		if err != nil {
			return nil, err
		}
		name := "external-secrets-" + c.Name
		if restart > 0 {
			name += "-restart-" + strconv.Itoa(restart) // the crashed one's log stays
		}
		argv := append([]string{bin, "--metrics-addr=127.0.0.1:" + strconv.Itoa(port), "--loglevel=info"}, strings.Fields(string(flags))...)
		return localsvc.Start(localsvc.ProcSpec{Name: name, Dir: dir,
			Env: append(localsvc.BaseEnv(dir), "KUBECONFIG="+c.Kubeconfig), Argv: argv})
	}}
	if e.proc, err = e.start(0); err != nil {
		return nil, err
	}
	go e.supervise()
	return e, nil
}

// supervise starts ESO again each time it exits before Stop.
func (e *ESO) supervise() {
	for {
		e.mu.Lock()
		p := e.proc
		e.mu.Unlock()
		<-p.Done()
		e.mu.Lock()
		if e.stopped {
			e.mu.Unlock()
			return
		}
		e.restarts++
		next, err := e.start(e.restarts)
		if err == nil {
			e.proc = next
		}
		e.mu.Unlock()
		if err != nil {
			fmt.Fprintf(os.Stderr, "restarting external-secrets: %v\n", err)
			time.Sleep(time.Second)
			e.mu.Lock()
			e.proc = p // wait on the exited one again: its Done is closed
			e.mu.Unlock()
		}
	}
}

// Restarts is how often ESO was started again.
func (e *ESO) Restarts() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.restarts
}

// Stop stops ESO for good.
func (e *ESO) Stop(grace time.Duration) error {
	e.mu.Lock()
	e.stopped = true
	p := e.proc
	e.mu.Unlock()
	return p.Stop(grace)
}

// CreateStore creates the default ClusterSecretStore with the fake
// provider and waits until ESO has validated it.
func CreateStore(ctx context.Context, c client.Client) error {
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(clusterStore)
	store.SetName(serviceapi.DefaultSecretStoreName)
	store.Object["spec"] = map[string]any{"provider": map[string]any{"fake": map[string]any{"data": []any{}}}}
	if err := c.Create(ctx, store); client.IgnoreAlreadyExists(err) != nil {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := c.Get(ctx, client.ObjectKeyFromObject(store), store); err != nil {
			return err
		}
		if ready(store) {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("ESO did not validate the ClusterSecretStore within 2m")
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func ready(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Ready" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// SetCredential puts (or replaces) key in the fake store, as a value ESO's
// dataFrom.extract turns into one Secret key per field.
func SetCredential(t *testing.T, c client.Client, key string, fields map[string]string) {
	t.Helper()
	value, err := json.Marshal(fields)
	poll.Must(t, err)
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(clusterStore)
	store.SetName(serviceapi.DefaultSecretStoreName)
	poll.Update(t, c, store, time.Minute, func() {
		data, _, _ := unstructured.NestedSlice(store.Object, "spec", "provider", "fake", "data")
		entry := map[string]any{"key": key, "value": string(value)}
		replaced := false
		for i, d := range data {
			if m, _ := d.(map[string]any); m["key"] == key {
				data[i], replaced = entry, true
			}
		}
		if !replaced {
			data = append(data, entry)
		}
		poll.Must(t, unstructured.SetNestedSlice(store.Object, data, "spec", "provider", "fake", "data"))
	})
}

// ExternalSecret makes ESO write Secret name in ns from the store's key,
// refreshed every hour: a test that changes the key's value has ESO sync at
// once (SyncExternalSecret). A refresh every second cost a status write per
// ExternalSecret and second for the whole suite, the busiest load of its
// control plane.
func ExternalSecret(t *testing.T, c client.Client, ns, name, key string) {
	t.Helper()
	es := externalSecret(ns, name)
	es.Object["spec"] = map[string]any{
		"refreshInterval": "1h",
		"secretStoreRef":  map[string]any{"kind": "ClusterSecretStore", "name": serviceapi.DefaultSecretStoreName},
		"target":          map[string]any{"name": name},
		"dataFrom":        []any{map[string]any{"extract": map[string]any{"key": key}}},
	}
	poll.Must(t, c.Create(t.Context(), es))
}

func externalSecret(ns, name string) *unstructured.Unstructured {
	es := &unstructured.Unstructured{}
	es.SetGroupVersionKind(esoGV.WithKind("ExternalSecret"))
	es.SetNamespace(ns)
	es.SetName(name)
	return es
}

// SyncExternalSecret has ESO sync the ExternalSecret name in ns now, as a
// user does with ESO's force-sync annotation, until the Secret it writes
// holds fields (the store's new value): a sync that ran before ESO's cache
// saw the store's change is asked for again.
func SyncExternalSecret(t *testing.T, c client.Client, ns, name string, fields map[string]string) {
	t.Helper()
	es := externalSecret(ns, name)
	poll.Until(t, time.Minute, func() error {
		var secret corev1.Secret
		if err := c.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, &secret); err != nil {
			return err
		}
		stale := 0
		for k, v := range fields {
			if string(secret.Data[k]) != v {
				stale++
			}
		}
		if stale == 0 {
			return nil
		}
		poll.Update(t, c, es, time.Minute, func() {
			ann := es.GetAnnotations()
			if ann == nil {
				ann = map[string]string{}
			}
			ann["force-sync"] = time.Now().Format(time.RFC3339Nano)
			es.SetAnnotations(ann)
		})
		return fmt.Errorf("secret %s/%s: %d of %d fields not synced from the store yet", ns, name, stale, len(fields))
	})
}

// CredentialKey names a site's entry in the fake store.
func CredentialKey(ns, name string) string { return fmt.Sprintf("%s/%s", ns, name) }

// SecretStore is a namespaced ESO SecretStore with the fake provider and no
// data: a store a test can break and mend without touching the default one
// the other sites sync from.
func SecretStore(ns, name string) *unstructured.Unstructured {
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(esoGV.WithKind("SecretStore"))
	store.SetNamespace(ns)
	store.SetName(name)
	SetStoreProvider(store, map[string]any{"fake": map[string]any{"data": []any{}}})
	return store
}

// SetStoreProvider replaces a store's provider block.
func SetStoreProvider(store *unstructured.Unstructured, provider map[string]any) {
	store.Object["spec"] = map[string]any{"provider": provider}
}

// UnreachableProvider is a provider block ESO cannot build a client for (a
// Kubernetes provider whose token Secret does not exist): the store turns
// Ready=False/InvalidProviderConfig, as when a store's backend is lost.
func UnreachableProvider() map[string]any {
	return map[string]any{"kubernetes": map[string]any{
		"remoteNamespace": "default",
		"server":          map[string]any{"url": "https://127.0.0.1:1"},
		"auth":            map[string]any{"token": map[string]any{"bearerToken": map[string]any{"name": "no-such-token", "key": "token"}}},
	}}
}

// StoreReady reports whether ESO has the store Ready=True.
func StoreReady(store *unstructured.Unstructured) bool { return ready(store) }
