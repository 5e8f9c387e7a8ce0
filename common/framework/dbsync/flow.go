// Package dbsync runs a service's schema-migration Job: one Job per pod
// template (keyed by its hash), never replaced while running, re-run when the
// template changes, and counted once per terminal Job UID.
package dbsync

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// PodSpecHashAnnotation carries the rerun key: the hash of the Job's pod
// template, stamped by workload.Job.
const PodSpecHashAnnotation = workload.PodSpecHashAnnotation

// State of the migration for the current template.
type State int

const (
	// Running means created, replaced or still running; poll again.
	Running State = iota
	// Succeeded means the Job for the current template completed.
	Succeeded
	// Failed means the Job for the current template failed; only a template change re-runs it.
	Failed
)

// Status is what one pass found.
type Status struct {
	State   State
	Message string
	// Job is the live Job (nil after a create or delete).
	Job *batchv1.Job
	// Replaced is a terminal Job of an older template deleted by this pass;
	// the caller counts it before it is gone.
	Replaced *batchv1.Job
}

// Ensure drives the Job towards the desired template; desired must carry
// PodSpecHashAnnotation.
// reader reads uncached, to judge a Job the label-filtered cache cannot see.
func Ensure(ctx context.Context, c client.Client, reader client.Reader, o apply.Owner, desired *batchv1.Job) (Status, error) {
	var live batchv1.Job
	err := c.Get(ctx, client.ObjectKeyFromObject(desired), &live)
	if apierrors.IsNotFound(err) {
		if err := o.Stamp(desired); err != nil {
			return Status{}, err
		}
		err := c.Create(ctx, desired)
		if apierrors.IsAlreadyExists(err) {
			var other batchv1.Job
			if err := reader.Get(ctx, client.ObjectKeyFromObject(desired), &other); err != nil {
				return Status{}, fmt.Errorf("reading Job %s: %w", desired.Name, err)
			}
			if !o.Owns(&other) {
				return Status{}, fmt.Errorf("job %s exists and is not owned by %s %s", desired.Name, o.Kind, o.Object.GetName())
			}
			return Status{State: Running, Message: fmt.Sprintf("Job %s is running", desired.Name), Job: &other}, nil
		}
		if err != nil {
			return Status{}, fmt.Errorf("creating Job %s: %w", desired.Name, err)
		}
		return Status{State: Running, Message: fmt.Sprintf("Job %s created", desired.Name)}, nil
	}
	if err != nil {
		return Status{}, fmt.Errorf("reading Job %s: %w", desired.Name, err)
	}
	if !o.Owns(&live) {
		return Status{}, fmt.Errorf("job %s exists and is not owned by %s %s", desired.Name, o.Kind, o.Object.GetName())
	}
	terminal, failed, msg := Terminal(&live)
	if !terminal || !live.DeletionTimestamp.IsZero() {
		return Status{State: Running, Message: fmt.Sprintf("Job %s is running", live.Name), Job: &live}, nil
	}
	if live.Annotations[PodSpecHashAnnotation] != desired.Annotations[PodSpecHashAnnotation] {
		if err := c.Delete(ctx, &live, client.PropagationPolicy("Background")); client.IgnoreNotFound(err) != nil {
			return Status{}, fmt.Errorf("replacing Job %s: %w", live.Name, err)
		}
		return Status{State: Running, Message: fmt.Sprintf("Job %s replaced for a new template", live.Name), Replaced: &live}, nil
	}
	if failed {
		return Status{State: Failed, Message: msg, Job: &live}, nil
	}
	return Status{State: Succeeded, Job: &live}, nil
}

// Terminal reports whether a Job finished, whether it failed, and the failure message.
func Terminal(j *batchv1.Job) (terminal, failed bool, message string) {
	for _, c := range j.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			return true, false, ""
		case batchv1.JobFailed:
			return true, true, c.Message
		}
	}
	return false, false, ""
}

// Duration is the seconds from the Job's creation to its terminal condition (≥ 0).
func Duration(j *batchv1.Job) float64 {
	for _, c := range j.Status.Conditions {
		if c.Status == corev1.ConditionTrue && (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) {
			d := c.LastTransitionTime.Sub(j.CreationTimestamp.Time).Seconds()
			if d < 0 {
				return 0
			}
			return d
		}
	}
	return 0
}
