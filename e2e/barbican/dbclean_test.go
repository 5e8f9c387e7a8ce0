package barbican_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestDBCleanRuns: on a fresh install the db-clean CronJob stays suspended
// (DBCleanSuspended) until the first db-sync has put the schema at the
// release. Then kube-controller-manager's CronJob controller fires it
// (scheduled every minute here) and its Job runs the real
// `barbican-manage db clean --min-days 7 --soft-delete-expired-secrets`:
// a secret soft-deleted 40 days ago leaves the database, one soft-deleted
// yesterday stays, an expired live secret is soft-deleted (the operator's
// default, unlike upstream's) and DBCleanReady names the run. With the
// schedule moved out of the way, a run made from the CronJob as `kubectl
// create job --from` does fails on a broken schema (the secrets table
// renamed): DBCleanReady turns False/DBCleanJobFailed with a Warning and
// the failure is counted. After the repair a later run succeeds and turns
// it True again. Suspending reports DBCleanSuspended and suspends the
// CronJob.
func TestDBCleanRuns(t *testing.T) {
	var gate *localrun.JobGate
	s := newSite(t, "2025.2", func(b *barbicanv1.Barbican) {
		// Held before the Barbican exists: the db-sync Job cannot have run.
		gate = env.Machine.Runner.HoldJobs(b.Namespace)
		b.Spec.DBClean = &barbicanv1.DBCleanSpec{Schedule: "* * * * *", RetentionDays: ptr.To(int32(7))}
	})
	defer gate.Open()

	// Fresh install: no schema at the release yet, no clean.
	c := s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if !strings.Contains(c.Message, "converges to 2025.2") {
		t.Errorf("DBCleanReady %q does not say it waits for the schema", c.Message)
	}
	if cj := s.cronJob(); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Errorf("CronJob not suspended before the first db-sync: %+v", cj.Spec.Suspend)
	}
	gate.Open()
	s.ready()
	poll.Until(t, waitLong, func() error {
		if cj := s.cronJob(); cj.Spec.Suspend == nil || *cj.Spec.Suspend {
			return fmt.Errorf("CronJob suspend %v after the db-sync", cj.Spec.Suspend)
		}
		return nil
	})
	if args := s.cronJob().Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command; !slices.Contains(args, "--soft-delete-expired-secrets") ||
		!strings.Contains(strings.Join(args, " "), "db clean --min-days 7") {
		t.Errorf("db-clean command %q", args)
	}

	const project, old, recent, expired = "0ld00000-0000-0000-0000-00000000000p", "0ld00000-0000-0000-0000-000000000001",
		"0ld00000-0000-0000-0000-000000000002", "0ld00000-0000-0000-0000-000000000003"
	// Only a run created after the rows exist can have cleaned them (runs
	// start every minute, one may have begun before the insert).
	inserted := time.Now().Truncate(time.Second).Add(time.Second)
	s.sql(fmt.Sprintf("INSERT INTO %s.projects (id, external_id, created_at, updated_at, deleted, status) "+
		"VALUES ('%s', 'e2e-project', NOW(), NOW(), 0, 'ACTIVE')", s.Schema, project))
	s.sql(fmt.Sprintf("INSERT INTO %s.secrets (id, project_id, name, created_at, updated_at, deleted_at, deleted, status, expiration) VALUES "+
		"('%s', '%s', 'old', NOW() - INTERVAL 41 DAY, NOW(), NOW() - INTERVAL 40 DAY, 1, 'ACTIVE', NULL), "+
		"('%s', '%s', 'recent', NOW() - INTERVAL 2 DAY, NOW(), NOW() - INTERVAL 1 DAY, 1, 'ACTIVE', NULL), "+
		"('%s', '%s', 'expired', NOW() - INTERVAL 2 DAY, NOW(), NULL, 0, 'ACTIVE', NOW() - INTERVAL 1 DAY)",
		s.Schema, old, project, recent, project, expired, project))

	// The CronJob controller's run.
	var scheduled string
	poll.Until(t, waitLong, func() error {
		for _, j := range s.cleanJobs() {
			if j.Annotations["cronjob.kubernetes.io/instantiate"] == "" && j.Status.Succeeded > 0 && !j.CreationTimestamp.Time.Before(inserted) {
				scheduled = j.Name
				return nil
			}
		}
		return fmt.Errorf("no db-clean run scheduled after the insert succeeded yet: %d runs", len(s.cleanJobs()))
	})
	s.cleanReports(metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled, scheduled)
	rows := s.sql("SELECT CONCAT(name, ':', deleted) FROM " + s.Schema + ".secrets WHERE id IN ('" + old + "', '" + recent + "', '" + expired + "') ORDER BY name")
	if want := "expired:1\nrecent:1"; strings.TrimSpace(rows) != want {
		t.Errorf("secrets after run %s: %q, want %q (the one deleted 40 days ago gone, the expired one soft-deleted)", scheduled, rows, want)
	}

	// No more scheduled runs: the next ones are the test's.
	s.update(func(b *barbicanv1.Barbican) { b.Spec.DBClean.Schedule = "1 0 1 1 *" })
	poll.Until(t, waitLong, func() error {
		if cj := s.cronJob(); cj.Spec.Schedule != "1 0 1 1 *" || len(cj.Status.Active) > 0 {
			return fmt.Errorf("CronJob schedule %q, %d active", cj.Spec.Schedule, len(cj.Status.Active))
		}
		return nil
	})
	s.sql(fmt.Sprintf("RENAME TABLE %[1]s.secrets TO %[1]s.secrets_away", s.Schema))
	failed := s.manualRun("failing")
	s.cleanReports(metav1.ConditionFalse, barbicanv1.ReasonDBCleanJobFailed, failed)
	suite.WaitEvent(t, env.K8s, s.NS, "Barbican", s.Name, barbicanv1.ReasonDBCleanJobFailed, waitLong)

	s.sql(fmt.Sprintf("RENAME TABLE %[1]s.secrets_away TO %[1]s.secrets", s.Schema))
	repaired := s.manualRun("repaired")
	s.cleanReports(metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled, repaired)
	poll.Until(t, waitLong, func() error {
		if got := s.cleanCount(); got["succeeded"] < 2 || got["failed"] != 1 {
			return fmt.Errorf("barbican_operator_db_clean_total %v, want 1 failed and at least 2 succeeded", got)
		}
		return nil
	})

	s.update(func(b *barbicanv1.Barbican) { b.Spec.DBClean.Suspend = true })
	s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if cj := s.cronJob(); cj.Spec.Suspend == nil || !*cj.Spec.Suspend {
		t.Errorf("CronJob not suspended: %+v", cj.Spec.Suspend)
	}
	// A paused clean holds nothing up.
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
}

// clean is the Barbican's db-clean CronJob.
func (s *site) clean() suite.Periodic {
	return suite.Periodic{S: s.Site, Suffix: "db-clean", Wait: waitLong}
}

func (s *site) cronJob() *batchv1.CronJob      { return s.clean().CronJob() }
func (s *site) cleanJobs() []batchv1.Job       { return s.clean().Runs() }
func (s *site) manualRun(suffix string) string { return s.clean().ManualRun(suffix) }
func (s *site) sql(stmt string) string         { return env.SQL(s.T, stmt) }
func (s *site) cleanCount() map[string]int {
	return s.clean().Count(env.Op, "barbican_operator_db_clean_total", "barbican")
}

// cleanReports waits until DBCleanReady has status and reason and names job.
func (s *site) cleanReports(status metav1.ConditionStatus, reason, job string) {
	s.T.Helper()
	s.clean().Reports(job, func() *metav1.Condition { return s.condition(barbicanv1.ConditionDBCleanReady, status, reason) })
}
