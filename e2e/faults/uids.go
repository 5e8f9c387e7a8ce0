package faults

import (
	"slices"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// uidLog records, per Job, ConfigMap and Secret name of a namespace, every
// object UID it has seen, in the order first seen: an object the operator
// created twice (deleted and created again, or replaced once too often)
// shows as one more UID under its name. It lists every 100 ms; while the
// API server is away a list fails and is skipped (nothing can be created
// then either).
type uidLog struct {
	mu   sync.Mutex
	seen map[string][]types.UID
	stop chan struct{}
	done chan struct{}
}

func watchUIDs(t *testing.T, c client.Client, ns string) *uidLog {
	l := &uidLog{seen: map[string][]types.UID{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for {
			l.list(t, c, ns)
			select {
			case <-l.stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(l.end)
	return l
}

func (l *uidLog) list(t *testing.T, c client.Client, ns string) {
	var jobs batchv1.JobList
	var cms corev1.ConfigMapList
	var secrets corev1.SecretList
	for kind, list := range map[string]client.ObjectList{"Job": &jobs, "ConfigMap": &cms, "Secret": &secrets} {
		if err := c.List(t.Context(), list, client.InNamespace(ns)); err != nil {
			continue
		}
		l.mu.Lock()
		for _, o := range objects(list) {
			name := kind + " " + o.GetName()
			if !slices.Contains(l.seen[name], o.GetUID()) {
				l.seen[name] = append(l.seen[name], o.GetUID())
			}
		}
		l.mu.Unlock()
	}
}

func objects(list client.ObjectList) []client.Object {
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil
	}
	out := make([]client.Object, 0, len(items))
	for _, o := range items {
		out = append(out, o.(client.Object))
	}
	return out
}

// end stops the lister and waits for it.
func (l *uidLog) end() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	<-l.done
}

// UIDs returns the UIDs seen under "Kind name" so far.
func (l *uidLog) UIDs(kindName string) []types.UID {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen[kindName])
}

// Recreated lists the names seen with more than one UID, except those in
// replaced, which may have exactly as many UIDs as given.
func (l *uidLog) Recreated(replaced map[string]int) map[string][]types.UID {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string][]types.UID{}
	for name, uids := range l.seen {
		want := 1
		if n, ok := replaced[name]; ok {
			want = n
		}
		if len(uids) > want {
			out[name] = slices.Clone(uids)
		}
	}
	return out
}
