package faults

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// The operator installed namespace-scoped for one namespace (helm upgrade
// with operator.watchNamespaces, the process started with the flag the
// chart renders for it) works with exactly the chart's RBAC of that mode:
// its ClusterRole keeps only the cluster-scoped reads, a Role in the
// watched namespace holds the rest. A spec change converges there, a CR
// created there is admitted and, deleted, goes through its finalizer; a CR
// in any other namespace is refused by the webhook with a message that
// names the watched namespaces. Restored to the cluster-wide install, the
// operator takes that CR in.
func (s Subject[T, P]) namespaceScoped(t *testing.T) {
	site, key := s.readySite(t)
	ctx := t.Context()
	poll.Must(t, s.Env.Op.Terminate())
	poll.Must(t, s.Env.Op.HelmUpgrade(ctx, "--set", "operator.watchNamespaces={"+site.NS+"}"))
	restored := false
	restore := func() error {
		err := s.Env.Op.Terminate()
		if err == nil {
			// Not t.Context(): a cleanup runs after it is done. (--set
			// k=null would keep the reused list.)
			err = s.Env.Op.HelmUpgrade(context.Background(), "--set-json", "operator.watchNamespaces=[]")
		}
		if err == nil {
			err = s.Env.Op.Start()
		}
		restored = err == nil
		return err
	}
	t.Cleanup(func() {
		if !restored {
			if err := restore(); err != nil {
				t.Errorf("restoring the cluster-wide install: %v", err)
			}
		}
	})
	poll.Must(t, s.Env.Op.StartWith("--watch-namespaces="+site.NS))

	obj := s.get(t, key)
	// The webhook server may start serving a moment after /readyz.
	poll.Update(t, s.Env.K8s, obj, Wait, func() { s.Change(obj) })
	s.ready(t, key)

	elsewhere := "e2e-elsewhere-" + strings.ToLower(site.Name)
	poll.Must(t, s.Env.K8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: elsewhere}}))
	err := s.Env.K8s.Create(ctx, s.New(elsewhere, "outside"))
	if want := fmt.Sprintf("namespace %q is not watched by", elsewhere); err == nil || !strings.Contains(err.Error(), want) ||
		!strings.Contains(err.Error(), "watchNamespaces: "+site.NS) {
		t.Fatalf("a CR outside the watched namespace: %v, want a refusal containing %q and the watched namespace", err, want)
	}

	second := s.New(site.NS, "second")
	poll.Must(t, s.Env.K8s.Create(ctx, second))
	for _, cr := range []client.Object{second, obj} {
		s.deleted(t, cr)
	}

	// Cluster-wide again (values and flags): the CR refused before is
	// admitted and taken in by the operator.
	poll.Must(t, restore())
	outside := s.New(elsewhere, "outside")
	poll.Until(t, Wait, func() error { return client.IgnoreAlreadyExists(s.Env.K8s.Create(ctx, outside)) })
	s.deleted(t, outside)
}

// deleted deletes cr and waits until it is gone: the operator released its
// finalizer.
func (s Subject[T, P]) deleted(t *testing.T, cr client.Object) {
	t.Helper()
	key := client.ObjectKeyFromObject(cr)
	poll.Until(t, Wait, func() error {
		// The operator must have taken the CR in (its finalizer) first, or
		// the delete proves nothing.
		now := P(new(T))
		if err := s.Env.K8s.Get(t.Context(), key, now); err != nil {
			return err
		}
		if len(now.GetFinalizers()) == 0 {
			return fmt.Errorf("%s has no finalizer yet", key)
		}
		return nil
	})
	poll.Must(t, s.Env.K8s.Delete(t.Context(), cr))
	poll.Until(t, Wait, func() error {
		switch err := s.Env.K8s.Get(t.Context(), key, P(new(T))); {
		case apierrors.IsNotFound(err):
			return nil
		case err != nil:
			return err
		}
		return fmt.Errorf("%s still there after its delete", key)
	})
}
