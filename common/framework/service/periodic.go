package service

import (
	"context"
	"fmt"
	"slices"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
)

// Periodic names the condition, reasons and series of a CronJob a service
// runs on the scheduler's clock (Glance's DBPurge, Barbican's DBClean).
type Periodic struct {
	// Condition the step sets ("DBPurgeReady").
	Condition string
	// Scheduled, Suspended (both True) and Failed (False) reasons; Failed is
	// also the Warning event of a failed run.
	Scheduled, Suspended, Failed string
	// Kind is the metrics Job kind counting the runs (metrics.JobDBPurge).
	Kind string
	// Suffix names the runs in the once-per-UID annotation ("db-purge").
	Suffix string
	// Deferred is the Warning event of a run whose count must wait for the
	// next pass ("DBPurgeMetricEmissionDeferred").
	Deferred string
}

// PeriodicJob ensures the CronJob and reports the newest terminal run it
// spawned: the Jobs carrying the CR's labels that the CronJob controls.
// Suspension outranks a failure; a later success clears an earlier failure.
// Every terminal run is counted once per UID, in creation order (several
// when more than one ended since the last pass), and a failed one warned
// once, when it is counted. While the CronJob is suspended nothing is counted: a
// run that ended during the pause (one started before it) is counted, and
// warned, once the pause is over, so no Warning arrives while the
// condition says Suspended. A failure to write the CronJob is returned with
// no condition set.
func (r *Reconciler) PeriodicJob(ctx context.Context, s *Scope, desired *batchv1.CronJob, p Periodic) (pipeline.Outcome, error) {
	if _, err := apply.Ensure(ctx, s.Target.Client, s.Owner, desired, nil); err != nil {
		return pipeline.Continue(), err
	}
	live := desired
	if live.Spec.Suspend != nil && *live.Spec.Suspend {
		s.SetTrue(p.Condition, p.Suspended, fmt.Sprintf("CronJob %s is suspended: no run is scheduled", live.Name))
		return pipeline.Continue(), nil
	}
	runs, err := terminalRuns(ctx, s.Target.Client, live, s.ID.Labels())
	if err != nil {
		return pipeline.Continue(), err
	}
	if len(runs) == 0 {
		s.SetTrue(p.Condition, p.Scheduled, fmt.Sprintf("CronJob %s is scheduled (%s); no run has finished yet", live.Name, live.Spec.Schedule))
		return pipeline.Continue(), nil
	}
	for _, run := range uncounted(runs, s.CR.GetAnnotations()[dbsync.UIDAnnotation(p.Suffix)]) {
		_, failed, msg := dbsync.Terminal(run)
		if !r.recordRun(ctx, s, run, p, failed, msg) {
			break // counted in order: the rest waits for the next pass
		}
	}
	newest := runs[len(runs)-1]
	if _, failed, msg := dbsync.Terminal(newest); failed {
		s.SetFalse(p.Condition, p.Failed, fmt.Sprintf("the newest run, Job %s, failed: %s", newest.Name, msg))
	} else {
		s.SetTrue(p.Condition, p.Scheduled, fmt.Sprintf("CronJob %s is scheduled (%s); the newest run, Job %s, succeeded", live.Name, live.Spec.Schedule, newest.Name))
	}
	return pipeline.Continue(), nil
}

// terminalRuns are the terminal Jobs controlled by cj among those labelled
// labels, oldest first by creationTimestamp (name breaking ties).
func terminalRuns(ctx context.Context, c client.Reader, cj *batchv1.CronJob, labels map[string]string) ([]*batchv1.Job, error) {
	var jobs batchv1.JobList
	if err := c.List(ctx, &jobs, client.InNamespace(cj.Namespace), client.MatchingLabels(labels)); err != nil {
		return nil, fmt.Errorf("listing Jobs of CronJob %s: %w", cj.Name, err)
	}
	var runs []*batchv1.Job
	for i := range jobs.Items {
		j := &jobs.Items[i]
		ref := metav1.GetControllerOf(j)
		if ref == nil || ref.UID != cj.UID {
			continue
		}
		if term, _, _ := dbsync.Terminal(j); term {
			runs = append(runs, j)
		}
	}
	slices.SortFunc(runs, func(a, b *batchv1.Job) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return runs, nil
}

// uncounted are the runs (oldest first) newer than the last one counted,
// whose UID is last: every run when none was ever counted, none when last
// is the newest. When the last counted run is gone (pruned by the
// CronJob's history limits) the older runs cannot be told apart from the
// newer ones, so only the newest counts: a run is never counted twice.
func uncounted(runs []*batchv1.Job, last string) []*batchv1.Job {
	if last == "" {
		return runs
	}
	for i, j := range runs {
		if string(j.UID) == last {
			return runs[i+1:]
		}
	}
	return runs[len(runs)-1:]
}

// recordRun counts a terminal run once and warns once per failed run (msg
// says why it failed); a deferred count is reported, retried next pass and
// returns false.
func (r *Reconciler) recordRun(ctx context.Context, s *Scope, job *batchv1.Job, p Periodic, failed bool, msg string) bool {
	if s.CR.GetAnnotations()[dbsync.UIDAnnotation(p.Suffix)] == string(job.UID) {
		return true
	}
	result := dbsync.ResultSucceeded
	if failed {
		result = dbsync.ResultFailed
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, p.Failed, "Run", "Job %s failed: %s", job.Name, msg)
	}
	if err := dbsync.RecordAs(ctx, r.Client, s.CR, job, r.Metrics, p.Kind, p.Suffix, result); err != nil {
		log.FromContext(ctx).Info("deferring metric emission", "kind", p.Kind, "error", err.Error())
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, p.Deferred, "Run", "%s", err.Error())
		return false
	}
	return true
}
