package suite

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

	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Periodic is the CronJob <name>-<Suffix> of a Site's CR (Glance's
// db-purge, Barbican's db-clean) and the runs it controls.
type Periodic struct {
	S      *Site
	Suffix string
	Wait   time.Duration
}

// Name is the CronJob's name.
func (p Periodic) Name() string { return p.S.Name + "-" + p.Suffix }

// CronJob waits for the CronJob and reads it.
func (p Periodic) CronJob() *batchv1.CronJob {
	p.S.T.Helper()
	var cj batchv1.CronJob
	poll.Until(p.S.T, p.Wait, func() error {
		return p.S.C.Get(p.S.Ctx, client.ObjectKey{Namespace: p.S.NS, Name: p.Name()}, &cj)
	})
	return &cj
}

// Runs lists the Jobs the CronJob controls.
func (p Periodic) Runs() []batchv1.Job {
	p.S.T.Helper()
	var list batchv1.JobList
	poll.Must(p.S.T, p.S.C.List(p.S.Ctx, &list, client.InNamespace(p.S.NS)))
	var out []batchv1.Job
	for _, j := range list.Items {
		if owner := metav1.GetControllerOf(&j); owner != nil && owner.Kind == "CronJob" && owner.Name == p.Name() {
			out = append(out, j)
		}
	}
	return out
}

// ManualRun creates a run from the CronJob as `kubectl create job --from`
// does and waits until the Job controller reports it finished. Its
// backoffLimit is 0 (a user's edit of the copied template): a failing run
// fails at once instead of after the Job controller's retries, minutes of
// back-off.
func (p Periodic) ManualRun(suffix string) string {
	p.S.T.Helper()
	j := testenv.JobFromCronJob(p.CronJob(), p.Name()+"-"+suffix)
	j.Spec.BackoffLimit = ptr.To(int32(0))
	poll.Must(p.S.T, p.S.C.Create(p.S.Ctx, j))
	poll.Until(p.S.T, p.Wait, func() error {
		if err := p.S.C.Get(p.S.Ctx, client.ObjectKeyFromObject(j), j); err != nil {
			return err
		}
		if done, _, _ := dbsync.Terminal(j); done {
			return nil
		}
		return fmt.Errorf("job %s not finished: %+v", j.Name, j.Status)
	})
	return j.Name
}

// Reports waits until the condition cond waits for names the run job.
func (p Periodic) Reports(job string, cond func() *metav1.Condition) {
	p.S.T.Helper()
	poll.Until(p.S.T, p.Wait, func() error {
		if c := cond(); !strings.Contains(c.Message, job) {
			return fmt.Errorf("%s %q does not name the run %s", c.Type, c.Message, job)
		}
		return nil
	})
}

// Count reads the operator's counter metric (e.g.
// glance_operator_db_purge_total) of the Site's CR, labelled crLabel, by
// result (succeeded, failed).
func (p Periodic) Count(op *Operator, metric, crLabel string) map[string]int {
	p.S.T.Helper()
	text, err := op.Metrics()
	poll.Must(p.S.T, err)
	series := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(metric) + `\{([^}]*)\} (\d+)`)
	out := map[string]int{}
	for _, m := range series.FindAllStringSubmatch(text, -1) {
		if !strings.Contains(m[1], crLabel+`="`+p.S.Name+`"`) || !strings.Contains(m[1], `namespace="`+p.S.NS+`"`) {
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

// SQL runs a statement on the suite's MariaDB and returns its output.
func (e *Env) SQL(t testing.TB, stmt string) string {
	t.Helper()
	out, err := e.DB.Query(stmt)
	poll.Must(t, err)
	return out
}
