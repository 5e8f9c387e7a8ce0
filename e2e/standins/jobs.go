package standins

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewJobCompleter plays the Job controller for a cluster without one: every
// Job that is not suspended and has no terminal condition is reported
// succeeded at once, with the status the Job controller writes when the
// last pod succeeds. No pod runs.
func NewJobCompleter(c client.Client) *StatusReporter[*batchv1.Job] {
	return &StatusReporter[*batchv1.Job]{
		Client: c, Kind: "Job", New: func() *batchv1.Job { return &batchv1.Job{} },
		Settled: func(j *batchv1.Job) bool { return ptr.Deref(j.Spec.Suspend, false) || jobFinished(j) },
		Report:  completeJob, Done: "marked Job complete",
	}
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
