package standins

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// JobCompleter plays the Job controller for a cluster without one: every Job
// that is not suspended and has no terminal condition is reported succeeded
// at once, with the status the Job controller writes when the last pod
// succeeds. No pod runs. Finished Jobs are left alone, so a settled pass
// writes nothing.
type JobCompleter struct {
	Client client.Client
}

// NewJobCompleter returns the Job stand-in.
func NewJobCompleter(c client.Client) *JobCompleter { return &JobCompleter{Client: c} }

// Reconcile completes one unfinished Job.
func (r *JobCompleter) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var j batchv1.Job
	if err := r.Client.Get(ctx, req.NamespacedName, &j); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !j.DeletionTimestamp.IsZero() || ptr.Deref(j.Spec.Suspend, false) || jobFinished(&j) {
		return ctrl.Result{}, nil
	}
	base := j.DeepCopy()
	completeJob(&j, metav1.Now())
	if err := r.Client.Status().Patch(ctx, &j, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, fmt.Errorf("completing Job %s: %w", req.NamespacedName, err)
	}
	log.FromContext(ctx).Info("marked Job complete")
	return ctrl.Result{}, nil
}

// jobFinished reports a Complete or Failed condition set to True.
func jobFinished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// completeJob writes what the Job controller writes once every completion
// succeeded: the success criteria first, then Complete, both with the
// completion time; the API server refuses Complete without the former.
func completeJob(j *batchv1.Job, now metav1.Time) {
	if j.Status.StartTime == nil {
		start := j.CreationTimestamp
		if start.IsZero() || start.After(now.Time) {
			start = now
		}
		j.Status.StartTime = &start
	}
	j.Status.Active = 0
	j.Status.Ready = ptr.To[int32](0)
	j.Status.Terminating = ptr.To[int32](0)
	j.Status.Succeeded = ptr.Deref(j.Spec.Completions, 1)
	j.Status.CompletionTime = &now
	j.Status.Conditions = append(j.Status.Conditions,
		batchv1.JobCondition{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonCompletionsReached,
			Message: "Reached expected number of succeeded pods", LastProbeTime: now, LastTransitionTime: now},
		batchv1.JobCondition{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, Reason: batchv1.JobReasonCompletionsReached,
			Message: "Reached expected number of succeeded pods", LastProbeTime: now, LastTransitionTime: now},
	)
}

// SetupWithManager watches Jobs.
func (r *JobCompleter) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&batchv1.Job{}).Named(controllerName("Job")).Complete(r)
}
