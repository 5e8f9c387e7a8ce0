package controller_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func cronJob(t *testing.T, ns, name string) *batchv1.CronJob {
	t.Helper()
	var cj batchv1.CronJob
	suite.Eventually(t, "CronJob "+name, func() error {
		return k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &cj)
	})
	return &cj
}

// The clean is suspended while the schema is not at the release (a fresh
// install included), scheduled once db-sync succeeded, suspended by spec,
// and reports a failed run. A run that ends while the CronJob is suspended
// is counted and warned only once the pause is over: the pause outranks it.
func TestDBCleanFollowsTheMigrationAndItsRuns(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	srv := bao(t, ns)
	api.Set(ns, "barbican", testenv.FakeAPI(t, http.StatusOK, 0))
	brownfield(t, ns, "barbican", srv)
	must(t, k8s.Create(context.Background(), newBarbican(ns, "barbican")))
	suite.ProvisionDatabase(t, ns, "barbican")

	waitCondition(t, ns, "barbican", conditions.TypeDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")
	b := waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if c := condition(b, barbicanv1.ConditionDBCleanReady); !strings.Contains(c.Message, "while the schema converges to 2025.2 (installed: none)") {
		t.Errorf("DBCleanReady message during the first db-sync: %q", c.Message)
	}
	if cj := cronJob(t, ns, "barbican-db-clean"); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Fatal("the CronJob is not suspended during the first db-sync")
	}

	suite.FinishJob(t, ns, "barbican-db-sync", true)
	suite.RollOut(t, ns, "barbican") // the health probe then counts the passes
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled)
	if cj := cronJob(t, ns, "barbican-db-clean"); cj.Spec.Suspend == nil || *cj.Spec.Suspend {
		t.Error("the CronJob stays suspended after db-sync")
	}

	suite.CronRun(t, k8s, ns, "barbican-db-clean", "barbican-db-clean-1", false)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanJobFailed)
	suite.WaitEvent(t, ns, "barbican", barbicanv1.ReasonDBCleanJobFailed, corev1.EventTypeWarning)
	suite.CronRun(t, k8s, ns, "barbican-db-clean", "barbican-db-clean-2", true)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled)

	update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true} })
	b = waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if c := condition(b, barbicanv1.ConditionDBCleanReady); !strings.Contains(c.Message, "is suspended: no run is scheduled") {
		t.Errorf("DBCleanReady message under spec.dbClean.suspend: %q", c.Message)
	}
	if cj := cronJob(t, ns, "barbican-db-clean"); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Error("spec.dbClean.suspend does not suspend the CronJob")
	}

	hits := testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: "barbican"})
	late := suite.CronRun(t, k8s, ns, "barbican-db-clean", "barbican-db-clean-3", false)
	suite.QuietPasses(t, get(t, ns, "barbican"), hits) // whole passes ran since the run ended
	b = waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if got := b.Annotations[dbsync.UIDAnnotation("db-clean")]; got == string(late.UID) {
		t.Error("a run that ended during the pause was counted during it")
	}
	if n := testenv.Emissions(suite.Events(t, ns, "barbican", barbicanv1.ReasonDBCleanJobFailed)); n != 1 {
		t.Errorf("%d %s emissions while suspended, want the 1 of the first failed run", n, barbicanv1.ReasonDBCleanJobFailed)
	}
	update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.DBClean = nil })
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanJobFailed)
	suite.Eventually(t, "counted and warned once the pause is over", func() error {
		if got := get(t, ns, "barbican").Annotations[dbsync.UIDAnnotation("db-clean")]; got != string(late.UID) {
			return errorf("last counted run %q, want %q", got, late.UID)
		}
		if n := testenv.Emissions(suite.Events(t, ns, "barbican", barbicanv1.ReasonDBCleanJobFailed)); n < 2 {
			return errorf("%d %s emissions", n, barbicanv1.ReasonDBCleanJobFailed)
		}
		return nil
	})
}

// A release bump the gate refuses leaves the clean suspended with nothing
// coming to end the pause: DBCleanBlocked. Correcting the spec resumes it.
func TestDBCleanBlockedAfterARefusedRelease(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))

	update(t, ns, "barbican", func(b *barbicanv1.Barbican) {
		b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2027.1", "2027.1"
	})
	waitCondition(t, ns, "barbican", conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonUpgradePathInvalid)
	b := waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanBlocked)
	if c := condition(b, barbicanv1.ConditionDBCleanReady); !strings.Contains(c.Message, "the release gate refused (UpgradePathInvalid)") {
		t.Errorf("DBCleanReady message after a refused release: %q", c.Message)
	}
	if cj := cronJob(t, ns, "barbican-db-clean"); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Error("the CronJob runs while the schema is behind the spec")
	}

	// Another refusal: the clean, which runs before the Database step,
	// names this generation's verdict, not the one the last pass left on
	// DatabaseReady.
	update(t, ns, "barbican", func(b *barbicanv1.Barbican) {
		b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2026.1", "2025.2"
	})
	b = waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanBlocked)
	if c := condition(b, barbicanv1.ConditionDBCleanReady); !strings.Contains(c.Message, "the release gate refused (ImageReleaseMismatch)") {
		t.Errorf("DBCleanReady message after the second refused release: %q", c.Message)
	}

	update(t, ns, "barbican", func(b *barbicanv1.Barbican) {
		b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2025.2", "2025.2"
	})
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled)
}
