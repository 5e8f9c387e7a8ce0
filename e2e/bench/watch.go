package bench

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// watchUntil lists newList() and then watches it, calling seen on every
// object listed, added or modified, until seen reports done. A watch the
// server closes is resumed from a fresh list. The harness reads through one
// watch instead of polling, so its own load stays small and the time an
// object reached a state is known to the event.
func watchUntil(ctx context.Context, c client.WithWatch, timeout time.Duration, what string,
	newList func() client.ObjectList, seen func(client.Object) bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		list := newList()
		if err := c.List(ctx, list); err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			return err
		}
		done := false
		for _, o := range items {
			done = seen(o.(client.Object)) || done
		}
		if done {
			return nil
		}
		w, err := c.Watch(ctx, newList(), &client.ListOptions{Raw: &metav1.ListOptions{ResourceVersion: list.GetResourceVersion()}})
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		finished := drain(ctx, w, seen)
		w.Stop()
		if finished {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for %s: not within %s", what, timeout)
		}
	}
}

// drain feeds watch events to seen; false when the watch ended first.
func drain(ctx context.Context, w watch.Interface, seen func(client.Object) bool) bool {
	for {
		select {
		case <-ctx.Done():
			return false
		case ev, ok := <-w.ResultChan():
			if !ok {
				return false
			}
			switch ev.Type {
			case watch.Added, watch.Modified:
				if seen(ev.Object.(client.Object)) {
					return true
				}
			case watch.Error:
				// Typically 410 Gone: resume from a new list.
				return false
			}
		}
	}
}

// waitAllReady waits until every CR is Ready at its generation; on a
// timeout the error shows the conditions of a few that are not.
func (s *scenario) waitAllReady(ctx context.Context, timeout time.Duration) error {
	last := map[string]*unstructured.Unstructured{}
	ready := 0
	err := watchUntil(ctx, s.client, timeout, fmt.Sprintf("%d %s Ready", s.n, s.op.GVK.Kind), s.crList, func(o client.Object) bool {
		u := o.(*unstructured.Unstructured)
		if prev, ok := last[u.GetNamespace()]; ok && readyAtGeneration(prev) {
			ready--
		}
		last[u.GetNamespace()] = u
		if readyAtGeneration(u) {
			ready++
		}
		return ready >= s.n
	})
	if err == nil {
		return nil
	}
	var notReady []string
	for ns, u := range last {
		if !readyAtGeneration(u) && len(notReady) < 3 {
			conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
			notReady = append(notReady, fmt.Sprintf("%s (generation %d): %v", ns, u.GetGeneration(), conds))
		}
	}
	return fmt.Errorf("%w; not Ready: %v", err, notReady)
}

func (s *scenario) crList() client.ObjectList {
	l := &unstructured.UnstructuredList{}
	l.SetGroupVersionKind(s.op.GVK.GroupVersion().WithKind(s.op.GVK.Kind + "List"))
	return l
}

// deploymentGenerations reads the generation of every CR's API Deployment.
func (s *scenario) deploymentGenerations(ctx context.Context) (map[client.ObjectKey]int64, error) {
	out := map[client.ObjectKey]int64{}
	for i := range s.n {
		key := s.op.Deployment(crNamespace(i), s.op.Name)
		var d appsv1.Deployment
		if err := s.client.Get(ctx, key, &d); err != nil {
			return nil, err
		}
		out[key] = d.Generation
	}
	return out, nil
}

// waitRolled waits until every Deployment of before has a newer generation
// reported rolled out, and returns the time each got there.
func (s *scenario) waitRolled(ctx context.Context, timeout time.Duration, before map[client.ObjectKey]int64) (map[client.ObjectKey]time.Time, error) {
	rolled := map[client.ObjectKey]time.Time{}
	err := watchUntil(ctx, s.client, timeout, "Deployments rolled", func() client.ObjectList { return &appsv1.DeploymentList{} },
		func(o client.Object) bool {
			d := o.(*appsv1.Deployment)
			key := client.ObjectKeyFromObject(d)
			if gen, ok := before[key]; ok && d.Generation > gen && deploymentRolledOut(d) {
				if _, done := rolled[key]; !done {
					rolled[key] = time.Now()
				}
			}
			return len(rolled) >= len(before)
		})
	return rolled, err
}

// deploymentRolledOut: the current generation observed with every replica
// updated and the Deployment Available.
func deploymentRolledOut(d *appsv1.Deployment) bool {
	want := ptr.Deref(d.Spec.Replicas, 1)
	if d.Status.ObservedGeneration < d.Generation || d.Status.UpdatedReplicas < want || d.Status.AvailableReplicas < want {
		return false
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
