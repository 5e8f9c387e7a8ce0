package harness

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// WaitLong bounds a wait on the operator: a pass, a Job, a rollout.
const WaitLong = 3 * time.Minute

// Service is a CR of one of our operators.
type Service interface {
	client.Object
	ServiceStatus() *serviceapi.ServiceStatus
}

// WaitCondition waits until cr's condition typ has status for its current
// generation and returns it.
func (e *Env) WaitCondition(t *testing.T, cr Service, typ string, status metav1.ConditionStatus) *metav1.Condition {
	t.Helper()
	var found *metav1.Condition
	poll.Until(t, WaitLong, func() error {
		var err error
		found, err = e.condition(t, cr, typ, status)
		return err
	})
	return found
}

// condition reads cr and returns its condition typ if it has status for
// the current generation, else an error saying what it has.
func (e *Env) condition(t *testing.T, cr Service, typ string, status metav1.ConditionStatus) (*metav1.Condition, error) {
	if err := e.K8s.Get(t.Context(), client.ObjectKeyFromObject(cr), cr); err != nil {
		return nil, err
	}
	c := meta.FindStatusCondition(cr.ServiceStatus().Conditions, typ)
	if c == nil || c.Status != status || c.ObservedGeneration != cr.GetGeneration() {
		return nil, fmt.Errorf("%s = %v, want %s (generation %d)", typ, c, status, cr.GetGeneration())
	}
	return c, nil
}

// Job waits for the Job key the operator writes.
func (e *Env) Job(t *testing.T, key client.ObjectKey) *batchv1.Job {
	t.Helper()
	var j batchv1.Job
	poll.Until(t, WaitLong, func() error { return e.K8s.Get(t.Context(), key, &j) })
	return &j
}

// RunJob runs the Job's container for real, as its pod would, with the
// trees provide maps (machine directory to path in the image) mounted, for
// at most timeout.
func (e *Env) RunJob(t *testing.T, j *batchv1.Job, provide map[string]string, timeout time.Duration) (int, string, error) {
	t.Helper()
	ct := e.PrepareJob(t, j)
	defer ct.Release()
	for source, target := range provide {
		poll.Must(t, ct.Provide(source, target))
	}
	return ct.Run(ct.Dir, timeout)
}

// PrepareJob resolves the Job's container to run in the suite's root.
func (e *Env) PrepareJob(t *testing.T, j *batchv1.Job) *localsvc.Prepared {
	t.Helper()
	ct, err := localsvc.PrepareJob(t.Context(), e.K8s, j)
	poll.Must(t, err)
	ct.Root = e.Root
	return ct
}

// PrepareDeployment resolves container name of d to run in the suite's root.
func (e *Env) PrepareDeployment(t *testing.T, d *appsv1.Deployment, name string) *localsvc.Prepared {
	t.Helper()
	ct, err := localsvc.PrepareDeployment(t.Context(), e.K8s, d, name)
	poll.Must(t, err)
	ct.Root = e.Root
	return ct
}

// CompleteJob runs the Job, fails the test unless it succeeds, and
// reports it finished on the Job as the Job controller would.
func (e *Env) CompleteJob(t *testing.T, j *batchv1.Job, provide map[string]string) {
	t.Helper()
	code, log, err := e.RunJob(t, j, provide, localsvc.RunTimeout)
	if err != nil || code != 0 {
		t.Fatalf("Job %s failed (code %d, %v):\n%s", j.Name, code, err, log)
	}
	poll.Must(t, testenv.JobFinished(t.Context(), e.K8s, client.ObjectKeyFromObject(j), true))
}

// SyncDatabase plays the Job controller for the db-sync Job key until
// the CR's DatabaseReady is True: it runs the Job (CompleteJob) and runs
// it again whenever the operator replaced it, as it does when the Job's
// template changes meanwhile (a Glance's config follows its backends as
// they turn ready, so an early Job is superseded).
func (e *Env) SyncDatabase(t *testing.T, cr Service, key client.ObjectKey, provide map[string]string) {
	t.Helper()
	poll.Until(t, WaitLong, func() error {
		var j batchv1.Job
		if err := e.K8s.Get(t.Context(), key, &j); err != nil {
			return err
		}
		if done, _, _ := dbsync.Terminal(&j); !done {
			e.CompleteJob(t, &j, provide)
		}
		_, err := e.condition(t, cr, conditions.TypeDatabaseReady, metav1.ConditionTrue)
		return err
	})
}

// Deployment waits for the Deployment key, one whose pod template mounts
// a config ConfigMap other than notConfigMap when that is set.
func (e *Env) Deployment(t *testing.T, key client.ObjectKey, notConfigMap string) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	poll.Until(t, WaitLong, func() error {
		if err := e.K8s.Get(t.Context(), key, &d); err != nil {
			return err
		}
		if cm := ConfigMapOf(&d); notConfigMap != "" && cm == notConfigMap {
			return fmt.Errorf("deployment still mounts ConfigMap %s", cm)
		}
		return nil
	})
	return &d
}

// ConfigMapOf names the config ConfigMap a Deployment mounts.
func ConfigMapOf(d *appsv1.Deployment) string {
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == "config" && v.ConfigMap != nil {
			return v.ConfigMap.Name
		}
	}
	return ""
}

// API is a service's API process started from a Deployment's container.
type API struct {
	URL       string
	Container *localsvc.Prepared
	Proc      *localsvc.Proc
}

// Launch is how a suite runs an API container here.
type Launch struct {
	// Map maps the rendered argv (given a free loopback port and the
	// container's directory), e.g. localsvc.UWSGIMapping.Map.
	Map func(argv []string, port int, dir string) ([]string, error)
	// Provide mounts machine directories at paths of the image.
	Provide map[string]string
	// Ready waits until the API serves.
	Ready func(*API) error
	// Hosts resolve to 127.0.0.1 in the container: the in-cluster names
	// of servers the test runs here.
	Hosts []string
}

// StartAPI runs container name of d as l says and waits until it is
// ready. An API process that exits while starting is started again, as the
// kubelet restarts a container, at most twice (Barbican's workers race to
// insert the secret_stores rows on a fresh schema, and the one that loses
// takes the instance down: --need-app); each restart is logged with the
// reason. The API is stopped when the test ends; a
// failed test logs the end of its output.
func (e *Env) StartAPI(t *testing.T, d *appsv1.Deployment, name string, l Launch) *API {
	t.Helper()
	ct := e.PrepareDeployment(t, d, name)
	ct.Hosts = l.Hosts
	for source, target := range l.Provide {
		poll.Must(t, ct.Provide(source, target))
	}
	port, err := localsvc.FreePort()
	poll.Must(t, err)
	argv, err := l.Map(ct.Argv, port, ct.Dir)
	poll.Must(t, err)
	ct.Argv = argv
	p, err := ct.Start()
	poll.Must(t, err)
	a := &API{URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/", Container: ct, Proc: p}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s log (%s):\n%s", name, a.Proc.LogPath, a.Proc.Tail())
		}
		a.Stop()
	})
	const starts = 3
	for attempt := 1; ; attempt++ {
		err := l.Ready(a)
		if err == nil {
			return a
		}
		if !a.Proc.Exited() || attempt == starts {
			t.Fatalf("%v\n%s", err, a.Proc.Log())
		}
		t.Logf("%s exited while starting (exit code %d), started again as the kubelet would:\n%s", name, a.Proc.ExitCode(), a.Proc.Tail())
		// The next process writes a log of its own: readiness counts lines.
		poll.Must(t, os.Rename(a.Proc.LogPath, fmt.Sprintf("%s.%d", a.Proc.LogPath, attempt)))
		a.Proc, err = ct.Start()
		poll.Must(t, err)
	}
}

// UWSGIReady waits until every uwsgi worker of the API has loaded the app
// (each loads it itself: --lazy-apps) and, unless path is empty, GET path
// answers 200. One answer alone is not enough: a worker still loading could
// fail and take the instance down (--need-app) after the test went on.
func UWSGIReady(path string) func(*API) error {
	return func(a *API) error {
		workers, err := localsvc.Processes(a.Container.Argv)
		if err != nil {
			return err
		}
		if err := a.Proc.WaitLog(localsvc.AppReadyLine, workers, 2*time.Minute); err != nil {
			return err
		}
		if path == "" {
			return nil
		}
		return localsvc.WaitHTTP(a.Proc, a.URL+path, http.StatusOK, 2*time.Minute)
	}
}

// Stop stops the API and removes its files.
func (a *API) Stop() {
	_ = a.Proc.Stop(5 * time.Second)
	a.Container.Release()
}

// Ready points the operator's probe at a, reports the Deployment key
// rolled out and waits for the CR's Ready.
func (e *Env) Ready(t *testing.T, cr Service, key client.ObjectKey, a *API) {
	t.Helper()
	e.Probes.Set(cr.GetNamespace(), cr.GetName(), a.URL)
	t.Cleanup(func() { e.Probes.Set(cr.GetNamespace(), cr.GetName(), "") })
	poll.Must(t, testenv.DeploymentAvailable(context.Background(), e.K8s, key))
	e.WaitCondition(t, cr, conditions.TypeReady, metav1.ConditionTrue)
}
