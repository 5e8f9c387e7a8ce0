package controller_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func gone(t *testing.T, ns, name string) func() error {
	return func() error {
		if exists(t, &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}) {
			return fmt.Errorf("Glance %s still present", name)
		}
		return nil
	}
}

// perCRSeries counts every per-CR series (db_sync and db_purge, counter
// and histogram) of the Glance.
func perCRSeries(t *testing.T, ns, name string) int {
	t.Helper()
	n := 0
	for _, kind := range []string{metrics.JobDBSync, metrics.JobDBPurge} {
		j := reconciler.Metrics.Jobs[kind]
		n += seriesOf(t, j.Total, name, ns) + seriesOf(t, j.Duration, name, ns)
	}
	return n
}

// Deletion with the MariaDB CRs: the finalizer deletes Database, User and
// Grant, says so, drops the per-CR series and evicts the probe cache; the
// attached backends are left waiting for a parent.
func TestDeletionWithMariaDBCRs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := ready(t, ns, newGlance(ns, "glance"))
	cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000001", true)
	suite.Eventually(t, "purge run counted", func() error {
		if n := testutil.ToFloat64(reconciler.Metrics.Jobs[metrics.JobDBPurge].Total.WithLabelValues(g.Name, ns, "succeeded")); n != 1 {
			return fmt.Errorf("db_purge_total = %v", n)
		}
		return nil
	})
	if n := perCRSeries(t, ns, g.Name); n != 4 {
		t.Fatalf("%d per-CR series before deletion, want db_sync and db_purge total and duration", n)
	}
	key := types.NamespacedName{Namespace: ns, Name: g.Name}
	suite.Eventually(t, "probe cached", func() error {
		if !reconciler.Probe.Cached(key) {
			poke(t, ns, g.Name)
			return fmt.Errorf("probe of %s not cached", key)
		}
		return nil
	})

	must(t, k8s.Delete(ctx, get(t, ns, g.Name)))
	suite.Eventually(t, "Glance finalized", gone(t, ns, g.Name))
	reasons := suite.EventReasons(t, ns, g.Name)
	if reasons["FinalizingDatabase"] == 0 || reasons["DatabaseFinalized"] == 0 {
		t.Errorf("events = %v, want FinalizingDatabase and DatabaseFinalized", reasons)
	}
	for _, r := range []string{"FinalizingDatabase", "DatabaseFinalized"} {
		for _, e := range eventsOf(t, ns, g.Name, r) {
			if e.Type != corev1.EventTypeNormal {
				t.Errorf("%s event of type %s", r, e.Type)
			}
		}
	}
	for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
		obj.SetNamespace(ns)
		obj.SetName(g.Name)
		if exists(t, obj) {
			t.Errorf("%T %s survived the finalizer", obj, g.Name)
		}
	}
	if n := perCRSeries(t, ns, g.Name); n != 0 {
		t.Errorf("%d per-CR series of the deleted Glance remain", n)
	}
	if reconciler.Probe.Cached(key) {
		t.Error("probe cache entry not evicted on finalizer release")
	}
	for _, b := range []string{"fast", "archive"} {
		waitBackend(t, ns, b, glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForParent)
		waitBackend(t, ns, b, glancev1.ConditionConfigProjected, metav1.ConditionFalse, glancev1.ReasonWaitingForProjection)
		waitBackend(t, ns, b, "Ready", metav1.ConditionFalse, "NotAllReady")
	}
}

// A brownfield Glance provisions no MariaDB CRs: deletion releases the
// finalizer at once with DatabaseFinalized only.
func TestDeletionBrownfield(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := newGlance(ns, "glance")
	g.Spec.Database.ClusterRef, g.Spec.Database.Host = nil, "db.example.org"
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(ctx, g))
	finishDBSync(t, ns, g.Name, true)
	suite.RollOut(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if exists(t, &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: g.Name}}) {
		t.Error("brownfield Glance provisioned a Database")
	}
	must(t, k8s.Delete(ctx, get(t, ns, g.Name)))
	suite.Eventually(t, "Glance finalized", gone(t, ns, g.Name))
	if r := suite.EventReasons(t, ns, g.Name); r["DatabaseFinalized"] == 0 || r["FinalizingDatabase"] != 0 {
		t.Errorf("events = %v, want only DatabaseFinalized", r)
	}
	if n := perCRSeries(t, ns, g.Name); n != 0 {
		t.Errorf("%d per-CR series of the deleted Glance remain", n)
	}
	waitBackend(t, ns, "fast", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForParent)
}
