package testenv

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Exists reads obj and reports whether it is there.
func (s *Suite) Exists(t *testing.T, obj client.Object) bool {
	t.Helper()
	err := s.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj)
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	return err == nil
}

// Poke writes an annotation on the object, which its controller's watch
// passes: a pass follows.
func (s *Suite) Poke(t *testing.T, obj client.Object) {
	t.Helper()
	s.Eventually(t, "poke "+obj.GetName(), func() error {
		if err := s.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		ann := obj.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann["test/poke"] = obj.GetResourceVersion()
		obj.SetAnnotations(ann)
		return s.Client.Update(context.Background(), obj)
	})
}

// InCache waits until cache (the manager's client) holds obj at the
// resourceVersion the API server has, so no later pass acts on an older copy.
func (s *Suite) InCache(t *testing.T, cache client.Reader, obj client.Object) {
	t.Helper()
	s.Eventually(t, "manager cache in sync", func() error {
		live, cached := obj.DeepCopyObject().(client.Object), obj.DeepCopyObject().(client.Object)
		if err := s.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), live); err != nil {
			return err
		}
		if err := cache.Get(context.Background(), client.ObjectKeyFromObject(obj), cached); err != nil {
			return err
		}
		if live.GetResourceVersion() != cached.GetResourceVersion() {
			return fmt.Errorf("cache at resourceVersion %s, server at %s", cached.GetResourceVersion(), live.GetResourceVersion())
		}
		return nil
	})
}

// CountProbes points the CR's health probe (through probes) at a server that
// counts the probes: each one is a pass that reached the parallel group.
func CountProbes(t *testing.T, probes *ProbeURLs, cr types.NamespacedName) *atomic.Int64 {
	t.Helper()
	hits := &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = fmt.Fprint(w, `{"status": "simulated"}`)
	}))
	t.Cleanup(srv.Close)
	probes.Set(cr.Namespace, cr.Name, srv.URL+"/")
	return hits
}

// QuietPasses pokes cr until three more probes arrived (hits, from
// CountProbes) and returns the writes the manager sent to its namespace
// meanwhile, sorted. Passes of one CR never overlap and the probe cache's
// TTL is a second, so the pass behind the second probe started after the
// first and ended before the third: at least one whole pass over the
// current inputs ran in the window.
func (s *Suite) QuietPasses(t *testing.T, cr client.Object, hits *atomic.Int64) []string {
	t.Helper()
	start, startWrites := hits.Load(), s.Writes.Snapshot()
	deadline := time.Now().Add(30 * time.Second)
	for hits.Load() < start+3 {
		if time.Now().After(deadline) {
			dump := ""
			if s.Dump != nil {
				dump = s.Dump()
			}
			t.Fatalf("%d probes in 30s, want 3\n%s", hits.Load()-start, dump)
		}
		s.Poke(t, cr.DeepCopyObject().(client.Object))
		time.Sleep(300 * time.Millisecond)
	}
	out := WritesIn(startWrites, s.Writes.Snapshot(), cr.GetNamespace())
	slices.Sort(out)
	return out
}
