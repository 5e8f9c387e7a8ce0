package controller_test

import (
	"context"
	"fmt"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/testenv"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
)

func schemeForTests() *runtime.Scheme { return operator.NewScheme(placementv1.AddToScheme) }

var nsCounter atomic.Int64

// namespace creates a fresh namespace for one test.
func namespace(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%s", nsCounter.Add(1), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	if len(name) > 60 {
		name = name[:60]
	}
	name = strings.TrimRight(strings.ReplaceAll(name, "_", "-"), "-")
	must(t, k8s.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}))
	return name
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// eventually polls f until it returns nil or the timeout passes.
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if err = f(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: %v\n%s", what, err, dumpPlacements())
}

// dumpPlacements prints every Placement's conditions, for failure messages.
func dumpPlacements() string {
	var list placementv1.PlacementList
	if err := k8s.List(context.Background(), &list); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, p := range list.Items {
		fmt.Fprintf(&b, "%s/%s gen %d:\n", p.Namespace, p.Name, p.Generation)
		for _, c := range p.Status.Conditions {
			fmt.Fprintf(&b, "  %s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	return b.String()
}

// newPlacement is a minimal valid Placement on a managed MariaDB, defaulted
// the way the mutating webhook would.
func newPlacement(ns, name string) *placementv1.Placement {
	p := fixture.Bare(ns, name)
	p.Spec.Cache = shared.CacheSpec{Servers: []string{"memcached:11211"}}
	webhook.Apply(p)
	return p
}

// inputs creates the default store (Ready), both credential Secrets and a Ready MariaDB.
func inputs(t *testing.T, ns string) {
	t.Helper()
	ctx := context.Background()
	eventually(t, "default store Ready", func() error {
		return testenv.SecretStore(ctx, k8s, "", shared.DefaultSecretStoreName, true)
	})
	secret(t, ns, "placement-db", map[string]string{"username": "placement", "password": "db-secret"})
	secret(t, ns, "placement-service-user", map[string]string{"password": "ks-secret"})
	must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", true))
}

func secret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: data}
	must(t, k8s.Create(context.Background(), s))
}

func get(t *testing.T, ns, name string) *placementv1.Placement {
	t.Helper()
	var p placementv1.Placement
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &p))
	return &p
}

// waitCondition waits until the condition has the status and reason.
func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *placementv1.Placement {
	t.Helper()
	var p placementv1.Placement
	eventually(t, fmt.Sprintf("%s %s=%s/%s", name, condType, status, reason), func() error {
		if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &p); err != nil {
			return err
		}
		c := meta.FindStatusCondition(p.Status.Conditions, condType)
		if c == nil {
			return fmt.Errorf("no condition %s in %v", condType, p.Status.Conditions)
		}
		if c.Status != status || c.Reason != reason {
			return fmt.Errorf("condition is %s/%s: %s", c.Status, c.Reason, c.Message)
		}
		if c.ObservedGeneration != p.Generation {
			return fmt.Errorf("condition observed generation %d, object %d", c.ObservedGeneration, p.Generation)
		}
		return nil
	})
	return &p
}

// provisionDatabase marks Database, User and Grant Ready once they exist.
func provisionDatabase(t *testing.T, ns, name string) {
	t.Helper()
	ctx := context.Background()
	for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
		obj.SetNamespace(ns)
		obj.SetName(name)
		eventually(t, fmt.Sprintf("%T ready", obj), func() error { return testenv.SQLReady(ctx, k8s, obj) })
	}
}

// finishJob completes the current db-sync Job.
func finishJob(t *testing.T, ns, name string, succeeded bool) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name + "-db-sync"}
	eventually(t, "db-sync Job finished", func() error { return testenv.JobFinished(context.Background(), k8s, key, succeeded) })
}

// rollOut reports the Deployment available.
func rollOut(t *testing.T, ns, name string) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name}
	eventually(t, "Deployment available", func() error { return testenv.DeploymentAvailable(context.Background(), k8s, key) })
}

// toReady drives a fresh Placement to Ready=True through the simulators.
func toReady(t *testing.T, ns string, p *placementv1.Placement) *placementv1.Placement {
	t.Helper()
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(context.Background(), p))
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
	rollOut(t, ns, p.Name)
	return waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &d))
	return &d
}

// events returns the reasons of the events recorded on a Placement.
func eventReasons(t *testing.T, ns, name string) map[string]int {
	t.Helper()
	var list corev1.EventList
	must(t, k8s.List(context.Background(), &list, client.InNamespace(ns)))
	out := map[string]int{}
	for _, e := range list.Items {
		if e.InvolvedObject.Name == name {
			out[e.Reason]++
		}
	}
	return out
}

func findCondition(p *placementv1.Placement, t string) *metav1.Condition {
	return meta.FindStatusCondition(p.Status.Conditions, t)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func secretObj(ns, name string) *corev1.Secret {
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// rollOutAfter waits for the operator to write the Deployment past generation
// gen (any write bumps it: Deployments count annotation changes too), then
// reports the rollout done.
func rollOutAfter(t *testing.T, ns, name string, gen int64) {
	t.Helper()
	eventually(t, "Deployment rewritten", func() error {
		if g := deployment(t, ns, name).Generation; g <= gen {
			return errorf("generation still %d", g)
		}
		return nil
	})
	rollOut(t, ns, name)
}

func mariadbDatabase(ns, name string) *mariadbv1alpha1.Database {
	return &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func mariadbUser(ns, name string) *mariadbv1alpha1.User {
	return &mariadbv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func mariadbGrant(ns, name string) *mariadbv1alpha1.Grant {
	return &mariadbv1alpha1.Grant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

func sqlReady(obj client.Object) error { return testenv.SQLReady(context.Background(), k8s, obj) }
