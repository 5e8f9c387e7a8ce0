package controller_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Passes over unchanged inputs send no mutating request at all: neither the
// Glance controller (children, status, purge accounting) nor the backend
// controller, which every poke of the Glance wakes as well.
func TestIdenticalPassesWriteNothing(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	hits := countProbes(t, ns, "glance")
	for _, b := range []string{"fast", "archive"} {
		waitBackend(t, ns, b, "Ready", metav1.ConditionTrue, "AllReady")
	}
	// Start from a cache holding what the server holds.
	inCache(t, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance"}})
	inCache(t, &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance-db-purge"}})
	inCache(t, &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance"}})

	// The probe now answers on another URL, which GlanceAPIReady's message
	// names: the first passes rewrite it. Only the passes after them count.
	passes(t, ns, "glance", hits)
	inCache(t, &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance"}})
	if wrote := passes(t, ns, "glance", hits); len(wrote) != 0 {
		t.Errorf("passes over unchanged inputs wrote: %v", wrote)
	}
}
