package controller_test

import (
	"context"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Deleting a Barbican deletes its MariaDB CRs, says so, drops its per-CR
// series, and leaves what barbican-api.md §6 retains: the attached store
// (now waiting for a parent) and its credentials Secret.
func TestDeletionRetainsTheStores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	b, _ := toReady(t, ns, newBarbican(ns, "barbican"))
	suite.CronRun(t, k8s, ns, "barbican-db-clean", "barbican-db-clean-1", true)
	suite.Eventually(t, "clean run counted", func() error {
		if n := testutil.ToFloat64(reconciler.Metrics.Jobs[metrics.JobDBClean].Total.WithLabelValues(b.Name, ns, "succeeded")); n != 1 {
			return errorf("db_clean_total = %v", n)
		}
		return nil
	})

	must(t, k8s.Delete(ctx, b))
	suite.Eventually(t, "Barbican finalized", func() error {
		if suite.Exists(t, &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: b.Name}}) {
			return errorf("Barbican still present")
		}
		return nil
	})
	reasons := suite.EventReasons(t, ns, b.Name)
	if reasons["FinalizingDatabase"] == 0 || reasons["DatabaseFinalized"] == 0 {
		t.Errorf("events = %v, want FinalizingDatabase and DatabaseFinalized", reasons)
	}
	for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
		obj.SetNamespace(ns)
		obj.SetName(b.Name)
		if suite.Exists(t, obj) {
			t.Errorf("%T %s survived the deletion", obj, b.Name)
		}
	}
	for _, kind := range []string{metrics.JobDBSync, metrics.JobDBClean} {
		j := reconciler.Metrics.Jobs[kind]
		if n := testenv.CountSeries(t, j.Total, "barbican", b.Name, ns) + testenv.CountSeries(t, j.Duration, "barbican", b.Name, ns); n != 0 {
			t.Errorf("%d %s series left", n, kind)
		}
	}
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForParent)
	if !suite.Exists(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: approleSecret}}) {
		t.Error("the store's credentials Secret went with the Barbican")
	}
}
