package glance_test

import (
	"fmt"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestDBPurgeRuns: kube-controller-manager's CronJob controller fires the
// rendered db-purge CronJob (scheduled every minute here) and its Job runs
// the real glance-manage db purge and purge_images_table: an image row
// soft-deleted beyond the retention leaves the database and DBPurgeReady
// names the run. With the schedule moved out of the way, a run made from
// the CronJob as `kubectl create job --from` does fails on a broken schema
// (the images table renamed): DBPurgeReady turns False/DBPurgeJobFailed
// with a Warning and the failure is counted. After the repair a later run
// succeeds and turns it True again. Suspending reports DBPurgeSuspended
// and suspends the CronJob.
func TestDBPurgeRuns(t *testing.T) {
	s := newSite(t, "2025.2", func(g *glancev1.Glance) {
		g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "* * * * *", RetentionDays: ptr.To(int32(7)), PurgeImagesTable: ptr.To(true)}
	})
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	const old = "0ld00000-0000-0000-0000-000000000001"
	// Only a run created after the row exists can have purged it (runs
	// start every minute, one may have begun before the insert).
	inserted := time.Now().Truncate(time.Second).Add(time.Second)
	s.sql(fmt.Sprintf("INSERT INTO %s.images (id, status, created_at, deleted_at, deleted, min_disk, min_ram, protected, visibility, os_hidden) "+
		"VALUES ('%s', 'deleted', NOW() - INTERVAL 41 DAY, NOW() - INTERVAL 40 DAY, 1, 0, 0, 0, 'public', 0)", s.Schema, old))

	// The CronJob controller's run.
	var scheduled string
	poll.Until(t, waitLong, func() error {
		for _, j := range s.purgeJobs() {
			if j.Annotations["cronjob.kubernetes.io/instantiate"] == "" && j.Status.Succeeded > 0 && !j.CreationTimestamp.Time.Before(inserted) {
				scheduled = j.Name
				return nil
			}
		}
		return fmt.Errorf("no db-purge run scheduled after the insert succeeded yet: %d runs", len(s.purgeJobs()))
	})
	s.purgeReports(metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, scheduled)
	if n := s.sql("SELECT COUNT(*) FROM " + s.Schema + ".images WHERE id = '" + old + "'"); n != "0" {
		t.Errorf("the image deleted 40 days ago is still in the images table after run %s", scheduled)
	}

	// No more scheduled runs: the next ones are the test's.
	s.update(func(g *glancev1.Glance) { g.Spec.DBPurge.Schedule = "1 0 1 1 *" })
	poll.Until(t, waitLong, func() error {
		if cj := s.cronJob(); cj.Spec.Schedule != "1 0 1 1 *" || len(cj.Status.Active) > 0 {
			return fmt.Errorf("CronJob schedule %q, %d active", cj.Spec.Schedule, len(cj.Status.Active))
		}
		return nil
	})
	s.sql(fmt.Sprintf("RENAME TABLE %[1]s.images TO %[1]s.images_away", s.Schema))
	failed := s.manualRun("failing")
	s.purgeReports(metav1.ConditionFalse, glancev1.ReasonDBPurgeJobFailed, failed)
	suite.WaitEvent(t, env.K8s, s.NS, "Glance", s.Name, glancev1.ReasonDBPurgeJobFailed, waitLong)

	s.sql(fmt.Sprintf("RENAME TABLE %[1]s.images_away TO %[1]s.images", s.Schema))
	repaired := s.manualRun("repaired")
	s.purgeReports(metav1.ConditionTrue, glancev1.ReasonDBPurgeScheduled, repaired)
	if got := s.purgeCount(); got["succeeded"] < 2 || got["failed"] != 1 {
		t.Errorf("glance_operator_db_purge_total %v, want 1 failed and at least 2 succeeded", got)
	}

	s.update(func(g *glancev1.Glance) { g.Spec.DBPurge.Suspend = true })
	s.condition(glancev1.ConditionDBPurgeReady, metav1.ConditionTrue, glancev1.ReasonDBPurgeSuspended)
	if cj := s.cronJob(); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Errorf("CronJob not suspended: %+v", cj.Spec.Suspend)
	}
}

// purge is the Glance's db-purge CronJob.
func (s *site) purge() suite.Periodic {
	return suite.Periodic{S: s.Site, Suffix: "db-purge", Wait: waitLong}
}

func (s *site) cronJob() *batchv1.CronJob      { return s.purge().CronJob() }
func (s *site) purgeJobs() []batchv1.Job       { return s.purge().Runs() }
func (s *site) manualRun(suffix string) string { return s.purge().ManualRun(suffix) }
func (s *site) sql(stmt string) string         { return env.SQL(s.T, stmt) }
func (s *site) purgeCount() map[string]int {
	return s.purge().Count(env.Op, "glance_operator_db_purge_total", "glance")
}

// purgeReports waits until DBPurgeReady has status and reason and names job.
func (s *site) purgeReports(status metav1.ConditionStatus, reason, job string) {
	s.T.Helper()
	s.purge().Reports(job, func() *metav1.Condition { return s.condition(glancev1.ConditionDBPurgeReady, status, reason) })
}
