package faults

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Running is what serves a CR at one moment: its Deployment (UID and
// generation), the Deployment's pods, its Service and the config artefact
// the pods mount. A fault of an input must leave all of it as it was.
type Running struct {
	c        client.Client
	key      client.ObjectKey
	dep      appsv1.Deployment
	pods     []types.UID
	artefact client.Object
}

// Observe records what serves the CR key (its children share its name) on
// c, the cluster its children land on.
func Observe(t *testing.T, c client.Client, key client.ObjectKey) *Running {
	t.Helper()
	r := &Running{c: c, key: key}
	poll.Must(t, c.Get(t.Context(), key, &r.dep))
	r.pods = podUIDs(t, c, &r.dep)
	var err error
	r.artefact, err = configInUse(t, c, &r.dep)
	poll.Must(t, err)
	return r
}

// Kept fails the test (naming when) unless the Deployment was neither
// rolled nor replaced, its pods are the same, and the Service and the
// same config artefact (UID and content) are still there.
func (r *Running) Kept(t *testing.T, when string) {
	t.Helper()
	var now appsv1.Deployment
	poll.Must(t, r.c.Get(t.Context(), r.key, &now))
	if now.Generation != r.dep.Generation || now.UID != r.dep.UID {
		t.Errorf("%s: the Deployment was rolled or replaced: generation %d → %d", when, r.dep.Generation, now.Generation)
	}
	if got := podUIDs(t, r.c, &now); !slices.Equal(got, r.pods) {
		t.Errorf("%s: the pods were replaced: %v → %v", when, r.pods, got)
	}
	if err := r.c.Get(t.Context(), r.key, &corev1.Service{}); err != nil {
		t.Errorf("%s: Service %s: %v", when, r.key.Name, err)
	}
	artefact := r.artefact.DeepCopyObject().(client.Object)
	if err := r.c.Get(t.Context(), client.ObjectKeyFromObject(r.artefact), artefact); err != nil {
		t.Errorf("%s: config artefact %s: %v", when, r.artefact.GetName(), err)
	} else if artefact.GetUID() != r.artefact.GetUID() || sameContent(r.artefact, artefact) != "" {
		t.Errorf("%s: config artefact %s replaced or changed", when, r.artefact.GetName())
	}
}
