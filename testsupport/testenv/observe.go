package testenv

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Observer is a watch on one kind in one namespace, opened before the
// action under test: it sees every write the API server makes, so a state
// that lasts a single write (one pass, undone by the next) is not missed
// the way a poll can miss it.
type Observer struct {
	s *Suite
	w watch.Interface
}

// Observe starts watching the kind of list in ns; the watch stops with the test.
func (s *Suite) Observe(t *testing.T, cfg *rest.Config, list client.ObjectList, ns string) *Observer {
	t.Helper()
	c, err := client.NewWithWatch(cfg, client.Options{Scheme: s.Client.Scheme()})
	Must(t, err)
	w, err := c.Watch(context.Background(), list, client.InNamespace(ns))
	Must(t, err)
	t.Cleanup(w.Stop)
	return &Observer{s: s, w: w}
}

// WaitSeen waits until an added or modified object matches and returns it.
// match describes what it wants when it returns false (for the failure).
func (o *Observer) WaitSeen(t *testing.T, what string, match func(client.Object) bool) client.Object {
	t.Helper()
	timeout := o.s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-o.w.ResultChan():
			if !ok {
				t.Fatalf("%s: the watch closed", what)
			}
			if obj, isObj := ev.Object.(client.Object); isObj && (ev.Type == watch.Added || ev.Type == watch.Modified) && match(obj) {
				return obj
			}
		case <-deadline:
			dump := ""
			if o.s.Dump != nil {
				dump = o.s.Dump()
			}
			t.Fatalf("%s: not seen within %s\n%s", what, timeout, dump)
		}
	}
}
