package controller_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Passes over unchanged inputs send no mutating request at all: neither the
// Barbican controller (children, status, clean accounting) nor the store
// controller, which every poke of the Barbican wakes as well and which
// logs in to the real server on each of those passes.
func TestIdenticalPassesWriteNothing(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))
	hits := testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: "barbican"})
	waitStore(t, ns, "vault", "Ready", metav1.ConditionTrue, "AllReady")
	inCache(t, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican"}})
	inCache(t, &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican-db-clean"}})
	inCache(t, &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican"}})

	// The probe now answers on another URL, which BarbicanAPIReady's message
	// names: the first passes rewrite it. Only the passes after them count.
	suite.QuietPasses(t, get(t, ns, "barbican"), hits)
	inCache(t, &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican"}})
	if wrote := suite.QuietPasses(t, get(t, ns, "barbican"), hits); len(wrote) != 0 {
		t.Errorf("passes over unchanged inputs wrote: %v", wrote)
	}
}
