package testenv

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Job reads the Job ns/name.
func (s *Suite) Job(ns, name string) (*batchv1.Job, error) {
	var j batchv1.Job
	err := s.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &j)
	return &j, err
}

// JobUID is the UID of the Job ns/name, "" when there is none.
func (s *Suite) JobUID(t *testing.T, ns, name string) types.UID {
	t.Helper()
	j, err := s.Job(ns, name)
	if apierrors.IsNotFound(err) {
		return ""
	}
	Must(t, err)
	return j.UID
}

// FinishNewJob finishes the Job ns/name once it is another Job than old (a
// re-run), not being deleted.
func (s *Suite) FinishNewJob(t *testing.T, ns, name string, old types.UID, succeeded bool) {
	t.Helper()
	s.Eventually(t, "Job "+name+" re-run and finished", func() error {
		j, err := s.Job(ns, name)
		if err != nil {
			return err
		}
		if j.UID == old || !j.DeletionTimestamp.IsZero() {
			return fmt.Errorf("Job %s not replaced yet", name)
		}
		return JobFinished(context.Background(), s.Client, client.ObjectKeyFromObject(j), succeeded)
	})
}

// CronRun plays the CronJob controller for one run of the CronJob cronJob on
// cluster c: it creates the Job from the job template (common labels,
// controller reference to the CronJob), lists it in status.active, finishes
// it and drops it from status.active again, as the CronJob controller does.
// Each status write of the CronJob is what wakes the CR.
func (s *Suite) CronRun(t *testing.T, c client.Client, ns, cronJob, job string, succeeded bool) *batchv1.Job {
	t.Helper()
	ctx := context.Background()
	var cj batchv1.CronJob
	s.Eventually(t, "CronJob "+cronJob, func() error {
		return c.Get(ctx, client.ObjectKey{Namespace: ns, Name: cronJob}, &cj)
	})
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: job, Labels: maps.Clone(cj.Spec.JobTemplate.Labels),
			Annotations:     map[string]string{"batch.kubernetes.io/cronjob-scheduled-timestamp": time.Now().UTC().Format(time.RFC3339)},
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(&cj, batchv1.SchemeGroupVersion.WithKind("CronJob"))},
		},
		Spec: *cj.Spec.JobTemplate.Spec.DeepCopy(),
	}
	Must(t, c.Create(ctx, j))
	ref := corev1.ObjectReference{APIVersion: "batch/v1", Kind: "Job", Namespace: ns, Name: job, UID: j.UID}
	s.cronStatus(t, c, ns, cronJob, func(st *batchv1.CronJobStatus) {
		st.Active = append(st.Active, ref)
		st.LastScheduleTime = &metav1.Time{Time: time.Now()}
	})
	s.Eventually(t, "Job "+job+" finished", func() error {
		return JobFinished(ctx, c, client.ObjectKeyFromObject(j), succeeded)
	})
	s.cronStatus(t, c, ns, cronJob, func(st *batchv1.CronJobStatus) {
		st.Active = slices.DeleteFunc(st.Active, func(r corev1.ObjectReference) bool { return r.UID == j.UID })
		if succeeded {
			st.LastSuccessfulTime = &metav1.Time{Time: time.Now()}
		}
	})
	Must(t, c.Get(ctx, client.ObjectKeyFromObject(j), j))
	return j
}

func (s *Suite) cronStatus(t *testing.T, c client.Client, ns, name string, mutate func(*batchv1.CronJobStatus)) {
	t.Helper()
	s.Eventually(t, "CronJob "+name+" status", func() error {
		var cj batchv1.CronJob
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &cj); err != nil {
			return err
		}
		mutate(&cj.Status)
		return c.Status().Update(context.Background(), &cj)
	})
}
