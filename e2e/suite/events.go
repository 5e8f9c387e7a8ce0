package suite

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Events counts the events of the object kind/name in namespace ns by
// reason (a repeated event counts its repeats).
func Events(t *testing.T, c client.Reader, ns, kind, name string) map[string]int {
	t.Helper()
	var list corev1.EventList
	poll.Must(t, c.List(t.Context(), &list, client.InNamespace(ns)))
	out := map[string]int{}
	for _, e := range list.Items {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.Name == name {
			out[e.Reason] += int(max(e.Count, 1))
		}
	}
	return out
}

// WaitEvent waits (at most wait) for an event of kind/name with reason.
func WaitEvent(t *testing.T, c client.Reader, ns, kind, name, reason string, wait time.Duration) {
	t.Helper()
	poll.Until(t, wait, func() error {
		if got := Events(t, c, ns, kind, name); got[reason] == 0 {
			return fmt.Errorf("no %s event of %s %s; have %v", reason, kind, name, got)
		}
		return nil
	})
}
