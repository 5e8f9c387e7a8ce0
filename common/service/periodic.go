package service

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/dbsync"
	"github.com/c5c3/openstack-operators/common/pipeline"
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
// Every terminal run is counted once per UID, and a failed one warned once,
// when it is counted. While the CronJob is suspended nothing is counted: a
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
	newest, err := newestRun(ctx, s.Target.Client, live, s.ID.Labels())
	if err != nil {
		return pipeline.Continue(), err
	}
	if newest == nil {
		s.SetTrue(p.Condition, p.Scheduled, fmt.Sprintf("CronJob %s is scheduled (%s); no run has finished yet", live.Name, live.Spec.Schedule))
		return pipeline.Continue(), nil
	}
	_, failed, msg := dbsync.Terminal(newest)
	r.recordRun(ctx, s, newest, p, failed, msg)
	if failed {
		s.SetFalse(p.Condition, p.Failed, fmt.Sprintf("the newest run, Job %s, failed: %s", newest.Name, msg))
	} else {
		s.SetTrue(p.Condition, p.Scheduled, fmt.Sprintf("CronJob %s is scheduled (%s); the newest run, Job %s, succeeded", live.Name, live.Spec.Schedule, newest.Name))
	}
	return pipeline.Continue(), nil
}

// newestRun is the newest terminal Job controlled by cj among those labelled
// labels, by creationTimestamp (name breaking ties), nil when none.
func newestRun(ctx context.Context, c client.Reader, cj *batchv1.CronJob, labels map[string]string) (*batchv1.Job, error) {
	var jobs batchv1.JobList
	if err := c.List(ctx, &jobs, client.InNamespace(cj.Namespace), client.MatchingLabels(labels)); err != nil {
		return nil, fmt.Errorf("listing Jobs of CronJob %s: %w", cj.Name, err)
	}
	var newest *batchv1.Job
	for i := range jobs.Items {
		j := &jobs.Items[i]
		ref := metav1.GetControllerOf(j)
		if ref == nil || ref.UID != cj.UID {
			continue
		}
		if term, _, _ := dbsync.Terminal(j); !term {
			continue
		}
		if newest == nil || newerJob(j, newest) {
			newest = j
		}
	}
	return newest, nil
}

func newerJob(a, b *batchv1.Job) bool {
	if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
		return b.CreationTimestamp.Before(&a.CreationTimestamp)
	}
	return a.Name > b.Name
}

// recordRun counts a terminal run once and warns once per failed run (msg
// says why it failed); a deferred count is reported and retried next pass.
func (r *Reconciler) recordRun(ctx context.Context, s *Scope, job *batchv1.Job, p Periodic, failed bool, msg string) {
	if s.CR.GetAnnotations()[dbsync.UIDAnnotation(p.Suffix)] == string(job.UID) {
		return
	}
	result := dbsync.ResultSucceeded
	if failed {
		result = dbsync.ResultFailed
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, p.Failed, "Run", "Job %s failed: %s", job.Name, msg)
	}
	if err := dbsync.RecordAs(ctx, r.Client, s.CR, job, r.Metrics, p.Kind, p.Suffix, result); err != nil {
		log.FromContext(ctx).Info("deferring metric emission", "kind", p.Kind, "error", err.Error())
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, p.Deferred, "Run", "%s", err.Error())
	}
}
