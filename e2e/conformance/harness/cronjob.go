package harness

import (
	"fmt"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// RunCronJob waits for the CronJob key the operator writes, makes a run of
// it as `kubectl create job --from` does (a Job from its template, owned by
// it, named <cronjob>-manual) and runs that Job's container for real; the
// test fails unless it exits 0. The run is not reported finished yet
// (ReportsRun): the caller checks what it did first.
func (e *Env) RunCronJob(t *testing.T, key client.ObjectKey) *batchv1.Job {
	t.Helper()
	var cj batchv1.CronJob
	poll.Until(t, WaitLong, func() error { return e.K8s.Get(t.Context(), key, &cj) })
	job := testenv.JobFromCronJob(&cj, cj.Name+"-manual")
	poll.Must(t, e.K8s.Create(t.Context(), job))
	code, log, err := e.RunJob(t, job, nil, WaitLong)
	if err != nil || code != 0 {
		t.Fatalf("Job %s (%q) failed (code %d, %v):\n%s", job.Name, job.Spec.Template.Spec.Containers[0].Command, code, err, log)
	}
	return job
}

// ReportsRun reports job finished, as the Job controller would, and waits
// until cr's condition typ is True and names the run.
func (e *Env) ReportsRun(t *testing.T, cr Service, typ string, job *batchv1.Job) {
	t.Helper()
	poll.Must(t, testenv.JobFinished(t.Context(), e.K8s, client.ObjectKeyFromObject(job), true))
	poll.Until(t, WaitLong, func() error {
		c := e.WaitCondition(t, cr, typ, metav1.ConditionTrue)
		if !strings.Contains(c.Message, job.Name) {
			return fmt.Errorf("%s %q does not report the run %s", typ, c.Message, job.Name)
		}
		return nil
	})
}
