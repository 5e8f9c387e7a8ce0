package glance_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/dbsync"
	"github.com/c5c3/openstack-operators/common/testenv"
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

// cronJob reads the Glance's db-purge CronJob.
func (s *site) cronJob() *batchv1.CronJob {
	s.T.Helper()
	var cj batchv1.CronJob
	poll.Until(s.T, waitLong, func() error {
		return env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name + "-db-purge"}, &cj)
	})
	return &cj
}

// purgeJobs lists the Jobs the db-purge CronJob controls.
func (s *site) purgeJobs() []batchv1.Job {
	s.T.Helper()
	var list batchv1.JobList
	poll.Must(s.T, env.K8s.List(s.Ctx, &list, client.InNamespace(s.NS)))
	var out []batchv1.Job
	for _, j := range list.Items {
		if owner := metav1.GetControllerOf(&j); owner != nil && owner.Kind == "CronJob" && owner.Name == s.Name+"-db-purge" {
			out = append(out, j)
		}
	}
	return out
}

// manualRun creates a run from the CronJob as `kubectl create job --from`
// does and waits until the Job controller reports it finished. Its
// backoffLimit is 0 (a user's edit of the copied template): a failing run
// fails at once instead of after the Job controller's retries, minutes of
// back-off.
func (s *site) manualRun(suffix string) string {
	s.T.Helper()
	j := testenv.JobFromCronJob(s.cronJob(), s.Name+"-db-purge-"+suffix)
	j.Spec.BackoffLimit = ptr.To(int32(0))
	poll.Must(s.T, env.K8s.Create(s.Ctx, j))
	poll.Until(s.T, waitLong, func() error {
		if err := env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(j), j); err != nil {
			return err
		}
		if done, _, _ := dbsync.Terminal(j); done {
			return nil
		}
		return fmt.Errorf("job %s not finished: %+v", j.Name, j.Status)
	})
	return j.Name
}

// purgeReports waits until DBPurgeReady has status and reason and names job.
func (s *site) purgeReports(status metav1.ConditionStatus, reason, job string) {
	s.T.Helper()
	poll.Until(s.T, waitLong, func() error {
		c := s.condition(glancev1.ConditionDBPurgeReady, status, reason)
		if !strings.Contains(c.Message, job) {
			return fmt.Errorf("DBPurgeReady %q does not name the run %s", c.Message, job)
		}
		return nil
	})
}

// sql runs a statement on the MariaDB.
func (s *site) sql(stmt string) string {
	s.T.Helper()
	out, err := env.DB.Query(stmt)
	poll.Must(s.T, err)
	return out
}

var purgeTotal = regexp.MustCompile(`(?m)^glance_operator_db_purge_total\{([^}]*)\} (\d+)`)

// purgeCount reads glance_operator_db_purge_total of the Glance by result.
func (s *site) purgeCount() map[string]int {
	s.T.Helper()
	text, err := env.Op.Metrics()
	poll.Must(s.T, err)
	out := map[string]int{}
	for _, m := range purgeTotal.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(m[1], `glance="`+s.Name+`"`) || !strings.Contains(m[1], `namespace="`+s.NS+`"`) {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		for _, result := range []string{"succeeded", "failed"} {
			if strings.Contains(m[1], `result="`+result+`"`) {
				out[result] += n
			}
		}
	}
	return out
}
