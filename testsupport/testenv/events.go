package testenv

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Events lists the events with reason recorded on the object name in ns.
func (s *Suite) Events(t *testing.T, ns, name, reason string) []corev1.Event {
	t.Helper()
	var list corev1.EventList
	Must(t, s.Client.List(context.Background(), &list, client.InNamespace(ns)))
	var out []corev1.Event
	for _, e := range list.Items {
		if e.InvolvedObject.Name == name && e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

// Emissions estimates how often events were emitted: the recorder folds a
// repeat of the same reason on the same object into an Event series (count
// 2 at the first repeat; later repeats stay in its memory for half an
// hour). 0 and 1 are exact; any repeat shows as 2 or more.
func Emissions(events []corev1.Event) int {
	n := 0
	for _, e := range events {
		if e.Series != nil {
			n += int(e.Series.Count)
		} else {
			n++
		}
	}
	return n
}

// WaitEvent waits until an event of eventType with reason is recorded on the
// object name and returns the events with that reason.
func (s *Suite) WaitEvent(t *testing.T, ns, name, reason, eventType string) []corev1.Event {
	t.Helper()
	var events []corev1.Event
	s.Eventually(t, eventType+" event "+reason, func() error {
		events = s.Events(t, ns, name, reason)
		if len(events) == 0 {
			return fmt.Errorf("no %s event on %s", reason, name)
		}
		for _, e := range events {
			if e.Type != eventType {
				return fmt.Errorf("%s event of type %s, want %s", reason, e.Type, eventType)
			}
		}
		return nil
	})
	return events
}
