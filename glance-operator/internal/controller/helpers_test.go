package controller_test

import (
	"context"
	"net/http"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/testenv"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
)

var must = testenv.Must

// newGlance is a minimal valid Glance on a managed MariaDB with the fields
// the defaulting webhook would fill.
func newGlance(ns, name string) *glancev1.Glance {
	g := fixture.Bare(ns, name)
	g.Spec.Cache = shared.CacheSpec{Servers: []string{"memcached:11211"}, Backend: shared.DefaultCacheBackend}
	g.Spec.ServiceUser.Username, g.Spec.ServiceUser.ProjectName = "glance", "service"
	g.Spec.ServiceUser.UserDomainName, g.Spec.ServiceUser.ProjectDomainName = "Default", "Default"
	return g
}

// inputs creates the store, the credential Secrets, a Ready MariaDB and the
// S3 credentials Secrets s3-a and s3-b.
func inputs(t *testing.T, ns string) {
	t.Helper()
	s3 := map[string]string{glancev1.S3AccessKeyID: "AKIA", glancev1.S3SecretAccessKey: "s3-secret"}
	suite.Inputs(t, ns, map[string]map[string]string{
		"glance-db":           {"username": "glance", "password": "db-secret"},
		"glance-service-user": {"password": "ks-secret"},
		"s3-a":                s3,
		"s3-b":                s3,
	})
}

// twoBackends attaches "fast" (default, s3-a) and "archive" (s3-b) to name.
func twoBackends(t *testing.T, ns, name string) {
	t.Helper()
	must(t, k8s.Create(context.Background(), fixture.S3Backend(ns, "fast", name, "s3-a", true)))
	must(t, k8s.Create(context.Background(), fixture.S3Backend(ns, "archive", name, "s3-b", false)))
}

func get(t *testing.T, ns, name string) *glancev1.Glance {
	t.Helper()
	var g glancev1.Glance
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &g))
	return &g
}

// waitCondition waits until the Glance's condition has the status and reason.
func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *glancev1.Glance {
	t.Helper()
	g := &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	suite.WaitCondition(t, g, func() []metav1.Condition { return g.Status.Conditions }, condType, status, reason)
	return g
}

// waitBackend waits until the GlanceBackend's condition has the status and reason.
func waitBackend(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *glancev1.GlanceBackend {
	t.Helper()
	b := &glancev1.GlanceBackend{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	suite.WaitCondition(t, b, func() []metav1.Condition { return b.Status.Conditions }, condType, status, reason)
	return b
}

// toReady drives a fresh Glance with two backends to Ready=True through the simulators.
func toReady(t *testing.T, ns string, g *glancev1.Glance) *glancev1.Glance {
	t.Helper()
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(context.Background(), g))
	suite.ProvisionDatabase(t, ns, g.Name)
	suite.FinishJob(t, ns, g.Name+"-db-sync", true)
	suite.RollOut(t, ns, g.Name)
	return waitCondition(t, ns, g.Name, glancev1.ConditionReady, metav1.ConditionTrue, "AllReady")
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &d))
	return &d
}
