package controller_test

import (
	"context"
	"testing"

	"github.com/c5c3/openstack-operators/testsupport/testenv"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

func gone(t *testing.T, ns, name string) func() error {
	return func() error {
		if exists(t, &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}) {
			return errorf("Placement still present")
		}
		return nil
	}
}

func TestDeletionWithMariaDBCRs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := toReady(t, ns, newPlacement(ns, "placement"))
	key := types.NamespacedName{Namespace: ns, Name: p.Name}
	if testutil.ToFloat64(reconciler.Metrics.DBSyncTotal.WithLabelValues(p.Name, ns, "succeeded")) != 1 {
		t.Fatalf("db_sync_total succeeded != 1 before deletion")
	}
	// The gauge is set once the pass that wrote Ready has returned.
	eventually(t, "ready gauge at 1", func() error {
		if v := testutil.ToFloat64(reconciler.Metrics.Ready.WithLabelValues(p.Name, ns)); v != 1 {
			return errorf("ready = %v for a Ready Placement, want 1", v)
		}
		return nil
	})
	if v := testutil.ToFloat64(reconciler.Metrics.Probes.WithLabelValues("succeeded", "APIHealthy")); v < 1 {
		t.Errorf("health_probes_total{succeeded} = %v after a probe passed, want at least 1", v)
	}
	reconciler.Probe.Evict(key) // the cache is per process; make sure the release evicts a fresh entry
	poke(t, ns, p.Name)
	eventually(t, "probe cached again", func() error {
		if !reconciler.Probe.Cached(key) {
			return errorf("probe of %s not cached", key)
		}
		return nil
	})

	must(t, k8s.Delete(ctx, p))
	eventually(t, "Placement finalized", gone(t, ns, p.Name))
	reasons := eventReasons(t, ns, p.Name)
	if reasons["FinalizingDatabase"] == 0 || reasons["DatabaseFinalized"] == 0 {
		t.Errorf("events = %v, want FinalizingDatabase and DatabaseFinalized", reasons)
	}
	for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
		obj.SetNamespace(ns)
		obj.SetName(p.Name)
		if exists(t, obj) {
			t.Errorf("%T %s survived the finalizer", obj, p.Name)
		}
	}
	if reconciler.Probe.Cached(key) {
		t.Errorf("probe cache entry not evicted on finalizer release")
	}
	series := testutil.CollectAndCount(reconciler.Metrics.DBSyncTotal)
	if n := countSeries(t, reconciler.Metrics.DBSyncTotal, p.Name, ns); n != 0 {
		t.Errorf("%d db_sync series of the deleted Placement remain (of %d)", n, series)
	}
	if n := testenv.CountSeries(t, reconciler.Metrics.Ready, "placement", p.Name, ns); n != 0 {
		t.Errorf("the ready series of the deleted Placement remains")
	}
}

func TestDeletionBrownfield(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.Database.ClusterRef, p.Spec.Database.Host = nil, "db.example.org"
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(ctx, p))
	finishJob(t, ns, p.Name, true)
	rollOut(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	if exists(t, &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: p.Name}}) {
		t.Errorf("brownfield Placement provisioned a Database")
	}
	must(t, k8s.Delete(ctx, get(t, ns, p.Name)))
	eventually(t, "Placement finalized", gone(t, ns, p.Name))
	if r := eventReasons(t, ns, p.Name); r["DatabaseFinalized"] == 0 || r["FinalizingDatabase"] != 0 {
		t.Errorf("events = %v, want only DatabaseFinalized", r)
	}
}

// countSeries counts the series of vec labelled with this Placement.
func countSeries(t *testing.T, vec *prometheus.CounterVec, name, ns string) int {
	t.Helper()
	return testenv.CountSeries(t, vec, "placement", name, ns)
}
