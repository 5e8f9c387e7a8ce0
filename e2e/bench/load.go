package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Names of what the harness creates.
const (
	// namespacePrefix starts the namespace of every CR: bench-0000, ...
	namespacePrefix = "bench-"
	// unrelatedSecret lives beside each CR and is referenced by nothing.
	unrelatedSecret = "bench-unrelated"
	// unrelatedPrefix starts the namespaces of the bulk unrelated objects.
	unrelatedPrefix = "unrelated-"
	// unrelatedNamespaces spread the bulk unrelated objects.
	unrelatedNamespaces = 100
)

func crNamespace(i int) string { return fmt.Sprintf("%s%04d", namespacePrefix, i) }

// kib is 1 KiB of payload for the unrelated objects.
var kib = strings.Repeat("x", 1024)

// parallel runs f(0..n-1) on workers goroutines and returns the first error.
func parallel(ctx context.Context, n, workers int, f func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				if err := f(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

func createIfMissing(ctx context.Context, c client.Client, obj client.Object) error {
	if err := c.Create(ctx, obj); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating %T %s/%s: %w", obj, obj.GetNamespace(), obj.GetName(), err)
	}
	return nil
}

// updateSecret replaces a Secret's data, retrying on conflicts.
func updateSecret(ctx context.Context, c client.Client, ns, name string, data map[string]string) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var s corev1.Secret
		if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &s); err != nil {
			return err
		}
		s.Data, s.StringData = nil, data
		return c.Update(ctx, &s)
	})
}

// conditionTrue reads status.conditions[type=t] of any object.
func conditionTrue(u *unstructured.Unstructured, t string) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == t {
			return m["status"] == "True"
		}
	}
	return false
}

// readyAtGeneration is the suite's readiness: Ready=True, stamped with the
// generation the object has.
func readyAtGeneration(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Ready" {
			continue
		}
		g, _, _ := unstructured.NestedInt64(m, "observedGeneration")
		return m["status"] == "True" && g == u.GetGeneration()
	}
	return false
}

// prepare creates the operator's cluster-wide inputs and, per CR namespace,
// its inputs and one unrelated Secret, then waits for the stand-ins to mark
// the inputs Ready.
func (s *scenario) prepare(ctx context.Context) error {
	if err := s.op.Prepare(ctx, s.client); err != nil {
		return err
	}
	err := parallel(ctx, s.n, s.cfg.Workers, func(ctx context.Context, i int) error {
		ns := crNamespace(i)
		if err := createIfMissing(ctx, s.client, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return err
		}
		if err := s.op.Inputs(ctx, s.client, ns); err != nil {
			return err
		}
		return createIfMissing(ctx, s.client, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: unrelatedSecret},
			StringData: map[string]string{"payload": kib, "round": "0"},
		})
	})
	if err != nil {
		return err
	}
	return poll(ctx, 200*time.Millisecond, 3*time.Minute, "inputs Ready", func() (bool, error) {
		for i := range s.n {
			if ok, err := s.op.InputsReady(ctx, s.client, crNamespace(i)); err != nil || !ok {
				return false, client.IgnoreNotFound(err)
			}
		}
		return true, nil
	})
}

func (s *scenario) createCRs(ctx context.Context) error {
	return parallel(ctx, s.n, s.cfg.Workers, func(ctx context.Context, i int) error {
		cr := s.op.NewCR(crNamespace(i), s.op.Name)
		if err := s.client.Create(ctx, cr); err != nil {
			return fmt.Errorf("creating %s %s: %w", s.op.GVK.Kind, crNamespace(i), err)
		}
		return nil
	})
}

// touchUnrelated changes the unrelated Secret beside every CR.
func (s *scenario) touchUnrelated(ctx context.Context, round int) error {
	return parallel(ctx, s.n, s.cfg.Workers, func(ctx context.Context, i int) error {
		return updateSecret(ctx, s.client, crNamespace(i), unrelatedSecret, map[string]string{"payload": kib, "round": fmt.Sprint(round)})
	})
}

// createUnrelated creates count Secrets and count ConfigMaps of 1 KiB in
// namespaces no CR lives in, with a plain client (no informer in the harness).
func (s *scenario) createUnrelated(ctx context.Context, count int) error {
	err := parallel(ctx, unrelatedNamespaces, s.cfg.Workers, func(ctx context.Context, i int) error {
		return createIfMissing(ctx, s.client, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("%s%02d", unrelatedPrefix, i)}})
	})
	if err != nil {
		return err
	}
	return parallel(ctx, count, s.cfg.Workers, func(ctx context.Context, i int) error {
		meta := metav1.ObjectMeta{Namespace: fmt.Sprintf("%s%02d", unrelatedPrefix, i%unrelatedNamespaces), Name: fmt.Sprintf("unrelated-%05d", i)}
		if err := createIfMissing(ctx, s.client, &corev1.Secret{ObjectMeta: meta, StringData: map[string]string{"payload": kib}}); err != nil {
			return err
		}
		return createIfMissing(ctx, s.client, &corev1.ConfigMap{ObjectMeta: meta, Data: map[string]string{"payload": kib}})
	})
}

// poll calls f every interval until it reports done, fails, or timeout passes.
func poll(ctx context.Context, interval, timeout time.Duration, what string, f func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		done, err := f()
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: not within %s", what, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
}
