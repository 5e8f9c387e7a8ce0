package testenv

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Kind is a typed accessor for one CR kind of an operator's suite: a
// service CR (its ServiceStatus) or an attached child (its
// ChildConditions). Each suite declares one per kind instead of writing
// the same get, wait and update helpers again.
type Kind[T any, P interface {
	*T
	client.Object
}] struct {
	Suite *Suite
}

// New is an empty object named name in ns.
func (k Kind[T, P]) New(ns, name string) P {
	p := P(new(T))
	p.SetNamespace(ns)
	p.SetName(name)
	return p
}

// Get reads the object; a read error fails the test.
func (k Kind[T, P]) Get(t *testing.T, ns, name string) P {
	t.Helper()
	p := k.New(ns, name)
	Must(t, k.Suite.Client.Get(context.Background(), client.ObjectKeyFromObject(p), p))
	return p
}

// Wait waits until the object's condition has the status and reason, for
// its current generation, and returns the object as it was then.
func (k Kind[T, P]) Wait(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) P {
	t.Helper()
	p := k.New(ns, name)
	k.Suite.WaitCondition(t, p, func() []metav1.Condition { return Conditions(p) }, condType, status, reason)
	return p
}

// Update applies mutate to the live object and writes it back, again on a
// conflict.
func (k Kind[T, P]) Update(t *testing.T, ns, name string, mutate func(P)) {
	t.Helper()
	k.Suite.Eventually(t, "update "+name, func() error {
		p := k.New(ns, name)
		if err := k.Suite.Client.Get(context.Background(), client.ObjectKeyFromObject(p), p); err != nil {
			return err
		}
		mutate(p)
		return k.Suite.Client.Update(context.Background(), p)
	})
}

// Condition is the object's condition condType, nil when unset.
func Condition(obj client.Object, condType string) *metav1.Condition {
	return meta.FindStatusCondition(Conditions(obj), condType)
}

// Conditions are the status conditions of a service CR or an attached
// child; nil for any other object.
func Conditions(obj client.Object) []metav1.Condition {
	switch o := obj.(type) {
	case interface {
		ServiceStatus() *serviceapi.ServiceStatus
	}:
		return o.ServiceStatus().Conditions
	case interface{ ChildConditions() []metav1.Condition }:
		return o.ChildConditions()
	}
	return nil
}

// Deployment reads the Deployment name in ns; a read error fails the test.
func (s *Suite) Deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	Must(t, s.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &d))
	return &d
}
