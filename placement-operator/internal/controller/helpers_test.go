package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func schemeForTests() *runtime.Scheme { return managerconfig.NewScheme(placementv1.AddToScheme) }

// namespace creates a fresh namespace for one test.
func namespace(t *testing.T) string { t.Helper(); return suite.Namespace(t) }

var must = testenv.Must

// eventually polls f until it returns nil or the timeout passes.
func eventually(t *testing.T, what string, f func() error) { t.Helper(); suite.Eventually(t, what, f) }

// dumpPlacements prints every Placement's conditions, for failure messages.
func dumpPlacements() string {
	var list placementv1.PlacementList
	if err := k8s.List(context.Background(), &list); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, p := range list.Items {
		testenv.WriteConditions(&b, fmt.Sprintf("%s/%s gen %d:", p.Namespace, p.Name, p.Generation), p.Status.Conditions)
	}
	return b.String()
}

// newPlacement is a minimal valid Placement on a managed MariaDB, defaulted
// the way the mutating webhook would.
func newPlacement(ns, name string) *placementv1.Placement {
	p := fixture.Bare(ns, name)
	p.Spec.Cache = serviceapi.CacheSpec{Servers: []string{"memcached:11211"}}
	webhook.Apply(p)
	return p
}

// inputs creates the default store (Ready), both credential Secrets and a Ready MariaDB.
func inputs(t *testing.T, ns string) {
	t.Helper()
	suite.Inputs(t, ns, map[string]map[string]string{
		"placement-db":           {"username": "placement", "password": "db-secret"},
		"placement-service-user": {"password": "ks-secret"},
	})
}

func secret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	suite.Secret(t, ns, name, data)
}

func get(t *testing.T, ns, name string) *placementv1.Placement {
	t.Helper()
	return placements.Get(t, ns, name)
}

// placements is the suite's typed accessor.
var placements = testenv.Kind[placementv1.Placement, *placementv1.Placement]{Suite: suite}

// waitCondition waits until the condition has the status and reason.
func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *placementv1.Placement {
	t.Helper()
	return placements.Wait(t, ns, name, condType, status, reason)
}

// provisionDatabase marks Database, User and Grant Ready once they exist.
func provisionDatabase(t *testing.T, ns, name string) {
	t.Helper()
	suite.ProvisionDatabase(t, ns, name)
}

// finishJob completes the current db-sync Job.
func finishJob(t *testing.T, ns, name string, succeeded bool) {
	t.Helper()
	suite.FinishJob(t, ns, name+"-db-sync", succeeded)
}

// rollOut reports the Deployment available.
func rollOut(t *testing.T, ns, name string) { t.Helper(); suite.RollOut(t, ns, name) }

// toReady drives a fresh Placement to Ready=True through the simulators.
func toReady(t *testing.T, ns string, p *placementv1.Placement) *placementv1.Placement {
	t.Helper()
	toRollout(t, ns, p)
	rollOut(t, ns, p.Name)
	return waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
}

// toRollout creates a fresh Placement and drives it through the database
// and db-sync to the Deployment's rollout, which it leaves to the caller.
func toRollout(t *testing.T, ns string, p *placementv1.Placement) {
	t.Helper()
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(context.Background(), p))
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	return suite.Deployment(t, ns, name)
}

// eventReasons returns the reasons of the events recorded on a Placement.
func eventReasons(t *testing.T, ns, name string) map[string]int {
	t.Helper()
	return suite.EventReasons(t, ns, name)
}

func findCondition(p *placementv1.Placement, t string) *metav1.Condition {
	return testenv.Condition(p, t)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func secretObj(ns, name string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// rollOutAfter waits for the operator to write the Deployment past generation
// gen, then reports the rollout done.
func rollOutAfter(t *testing.T, ns, name string, gen int64) {
	t.Helper()
	suite.RollOutAfter(t, ns, name, gen)
}

func sqlReady(obj client.Object) error { return testenv.SQLReady(context.Background(), k8s, obj) }
