package controller_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// purgeAnnotation remembers the last purge Job counted.
const purgeAnnotation = "operators.c5c3.io/last-db-purge-job-uid"

// purgeCount is glance_operator_db_purge_total of the Glance for result.
func purgeCount(ns, result string) float64 {
	return testutil.ToFloat64(reconciler.Metrics.Jobs[metrics.JobDBPurge].Total.WithLabelValues("glance", ns, result))
}

// waitPurge waits until DBPurgeReady has status and reason, the runs are
// counted as want (succeeded, failed), and the Glance remembers uid.
func waitPurge(t *testing.T, ns string, status metav1.ConditionStatus, reason string, succeeded, failed float64, uid string) *glancev1.Glance {
	t.Helper()
	g := waitCondition(t, ns, "glance", glancev1.ConditionDBPurgeReady, status, reason)
	suite.Eventually(t, "purge runs counted", func() error {
		s, f := purgeCount(ns, "succeeded"), purgeCount(ns, "failed")
		if s != succeeded || f != failed {
			return fmt.Errorf("db_purge_total succeeded %v failed %v, want %v / %v", s, f, succeeded, failed)
		}
		if g = get(t, ns, "glance"); g.Annotations[purgeAnnotation] != uid {
			return fmt.Errorf("%s = %q, want %q", purgeAnnotation, g.Annotations[purgeAnnotation], uid)
		}
		return nil
	})
	return g
}

// The CronJob's runs: the newest terminal one the CronJob controls decides
// DBPurgeReady, a failure warns once, a newer success clears it, a suspended
// CronJob outranks a failure, Jobs it does not control are ignored, and each
// run is counted exactly once per UID, also when several ended between two
// passes.
func TestDBPurgeRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	hits := countProbes(t, ns, "glance")
	g := waitCondition(t, ns, "glance", glancev1.ConditionDBPurgeReady, metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled)
	// The db-sync Job carries the same labels but the Glance controls it.
	if c := condition(g, glancev1.ConditionDBPurgeReady); !strings.Contains(c.Message, "no run has finished yet") {
		t.Errorf("DBPurgeReady message %q before any run", c.Message)
	}
	if _, ok := g.Annotations[purgeAnnotation]; ok {
		t.Errorf("purge UID annotation before any run: %v", g.Annotations)
	}

	a := cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000001", false)
	g = waitPurge(t, ns, metav1.ConditionFalse, glancev1.ReasonDBPurgeJobFailed, 0, 1, string(a.UID))
	if c := condition(g, glancev1.ConditionDBPurgeReady); !strings.Contains(c.Message, a.Name) {
		t.Errorf("DBPurgeJobFailed message %q does not name %s", c.Message, a.Name)
	}
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
	waitEvent(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed, corev1.EventTypeWarning)

	// Counting a run costs one annotation patch and one status write: the
	// parallel group hands the patched metadata (resourceVersion) on to the
	// status write, which would otherwise conflict and be retried.
	start := writes.Snapshot()
	b := cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000002", true)
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, 1, 1, string(b.UID))
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	base := "/apis/glance.openstack.c5c3.io/v1alpha1/namespaces/" + ns + "/glances/glance"
	wrote := testenv.WritesIn(start, writes.Snapshot(), ns)
	slices.Sort(wrote)
	if want := []string{"PATCH " + base + " (1 times)", "PUT " + base + "/status (1 times)"}; !slices.Equal(wrote, want) {
		t.Errorf("counting one run wrote %v, want %v", wrote, want)
	}

	// More passes over the same runs count nothing and warn nothing.
	if wrote := passes(t, ns, "glance", hits); len(wrote) != 0 {
		t.Errorf("passes over counted runs wrote: %v", wrote)
	}
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, 1, 1, string(b.UID))
	if n := emissions(eventsOf(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed)); n != 1 {
		t.Errorf("DBPurgeJobFailed emitted %d times for one failed run", n)
	}

	// Newer failed Jobs the CronJob does not control: none counts.
	var cj batchv1.CronJob
	must(t, k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "glance-db-purge"}, &cj))
	notControlled := metav1.NewControllerRef(&cj, batchv1.SchemeGroupVersion.WithKind("CronJob"))
	notControlled.Controller = new(false)
	for i, owners := range [][]metav1.OwnerReference{nil, {*notControlled}} {
		j := &batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("glance-db-purge-2900001%d", i),
				Labels: cj.Spec.JobTemplate.Labels, OwnerReferences: owners},
			Spec: *cj.Spec.JobTemplate.Spec.DeepCopy(),
		}
		must(t, k8s.Create(ctx, j))
		suite.Eventually(t, "foreign Job failed", func() error {
			return testenv.JobFinished(ctx, k8s, client.ObjectKeyFromObject(j), false)
		})
		inCache(t, j)
	}
	passes(t, ns, "glance", hits)
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, 1, 1, string(b.UID))

	// A newer failure, then suspension: the pause outranks it; resumed, the
	// failure shows again without a second warning for the same run.
	c := cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000003", false)
	waitPurge(t, ns, metav1.ConditionFalse, glancev1.ReasonDBPurgeJobFailed, 1, 2, string(c.UID))
	waitEvent(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed, corev1.EventTypeWarning)
	suite.Eventually(t, "second failure warned", func() error {
		if n := emissions(eventsOf(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed)); n != 2 {
			return fmt.Errorf("DBPurgeJobFailed emitted %d times for two failed runs", n)
		}
		return nil
	})
	update(t, ns, "glance", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{Suspend: true} })
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeSuspended, 1, 2, string(c.UID))
	must(t, k8s.Get(ctx, client.ObjectKeyFromObject(&cj), &cj))
	if cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Errorf("CronJob suspend = %v", cj.Spec.Suspend)
	}
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")

	update(t, ns, "glance", func(g *glancev1.Glance) { g.Spec.DBPurge = nil })
	waitPurge(t, ns, metav1.ConditionFalse, glancev1.ReasonDBPurgeJobFailed, 1, 2, string(c.UID))
	if n := emissions(eventsOf(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed)); n != 2 {
		t.Errorf("DBPurgeJobFailed emitted %d times for two failed runs", n)
	}

	// Two runs end while the CronJob is paused (both started before it):
	// passes over the pause count nothing; resumed, one pass counts both in
	// order and warns once for the failed one.
	update(t, ns, "glance", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{Suspend: true} })
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeSuspended, 1, 2, string(c.UID))
	d := cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000004", false)
	e := cronRun(t, k8s, ns, "glance-db-purge", "glance-db-purge-29000005", true)
	inCache(t, d)
	inCache(t, e)
	if wrote := passes(t, ns, "glance", hits); len(wrote) != 0 {
		t.Errorf("passes over a suspended CronJob wrote: %v", wrote)
	}
	update(t, ns, "glance", func(g *glancev1.Glance) { g.Spec.DBPurge = nil })
	waitPurge(t, ns, metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, 2, 3, string(e.UID))
	suite.Eventually(t, "third failure warned", func() error {
		if n := emissions(eventsOf(t, ns, "glance", glancev1.ReasonDBPurgeJobFailed)); n != 3 {
			return fmt.Errorf("DBPurgeJobFailed emitted %d times for three failed runs", n)
		}
		return nil
	})
	if d := seriesOf(t, reconciler.Metrics.Jobs[metrics.JobDBPurge].Duration, "glance", ns); d != 1 {
		t.Errorf("%d db_purge_duration series, want 1", d)
	}
}
