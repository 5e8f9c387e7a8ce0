package standins_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/standins"
)

func newJob(ns, name string, suspend bool) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: batchv1.JobSpec{Suspend: ptr.To(suspend), Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "main", Image: "registry.example.org/job:1"}},
		}}},
	}
}

func newDeployment(ns, name string, replicas int32) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "registry.example.org/api:1"}}},
			},
		},
	}
}

func reconcileOnce(t *testing.T, r standins.StandIn, ns, name string) {
	t.Helper()
	if _, err := r.Reconcile(context.Background(), ctrl.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}); err != nil {
		t.Fatalf("%T %s/%s: %v", r, ns, name, err)
	}
}

func jobCondition(j *batchv1.Job, ct batchv1.JobConditionType) *batchv1.JobCondition {
	for i := range j.Status.Conditions {
		if j.Status.Conditions[i].Type == ct {
			return &j.Status.Conditions[i]
		}
	}
	return nil
}

// checkJobComplete checks the status shape the Job controller writes for a
// succeeded Job.
func checkJobComplete(j *batchv1.Job) error {
	for _, ct := range []batchv1.JobConditionType{batchv1.JobSuccessCriteriaMet, batchv1.JobComplete} {
		if c := jobCondition(j, ct); c == nil || c.Status != corev1.ConditionTrue {
			return fmt.Errorf("condition %s = %v, want True", ct, c)
		}
	}
	if j.Status.StartTime == nil || j.Status.CompletionTime == nil || j.Status.Succeeded != 1 {
		return fmt.Errorf("start %v, completion %v, succeeded %d", j.Status.StartTime, j.Status.CompletionTime, j.Status.Succeeded)
	}
	if j.Status.CompletionTime.Before(j.Status.StartTime) {
		return fmt.Errorf("completion %v before start %v", j.Status.CompletionTime, j.Status.StartTime)
	}
	return nil
}

// checkRolledOut checks the status the Deployment controller writes once the
// current generation is fully rolled out.
func checkRolledOut(d *appsv1.Deployment) error {
	n := *d.Spec.Replicas
	s := d.Status
	if s.ObservedGeneration != d.Generation || s.Replicas != n || s.UpdatedReplicas != n || s.ReadyReplicas != n || s.AvailableReplicas != n {
		return fmt.Errorf("generation %d, status %+v, want every count %d at the current generation", d.Generation, s, n)
	}
	want := map[appsv1.DeploymentConditionType]string{
		appsv1.DeploymentAvailable: "MinimumReplicasAvailable", appsv1.DeploymentProgressing: "NewReplicaSetAvailable",
	}
	for _, c := range s.Conditions {
		if r, ok := want[c.Type]; ok && c.Status == corev1.ConditionTrue && c.Reason == r {
			delete(want, c.Type)
		}
	}
	if len(want) > 0 {
		return fmt.Errorf("missing conditions %v in %v", want, s.Conditions)
	}
	return nil
}

func TestWorkloadPassReportsOnceThenWritesNothing(t *testing.T) {
	const ns = "workloads-direct"
	ctx := context.Background()
	k := newClient(t, nil)
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, k.Create(ctx, newJob(ns, "db-sync", false)))
	must(t, k.Create(ctx, newDeployment(ns, "api", 2)))
	var writes writeCounter
	w := newClient(t, writes.wrap)
	jobs, deployments := standins.NewJobCompleter(w), standins.NewDeploymentRollout(w)

	reconcileOnce(t, jobs, ns, "db-sync")
	reconcileOnce(t, deployments, ns, "api")
	if got := writes.take(); len(got) != 2 {
		t.Fatalf("first pass wrote %v, want one status patch per object", got)
	}
	var j batchv1.Job
	must(t, k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "db-sync"}, &j))
	must(t, checkJobComplete(&j))
	var d appsv1.Deployment
	must(t, k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "api"}, &d))
	must(t, checkRolledOut(&d))

	reconcileOnce(t, jobs, ns, "db-sync")
	reconcileOnce(t, deployments, ns, "api")
	if got := writes.take(); len(got) != 0 {
		t.Fatalf("second pass over reported objects wrote: %v", got)
	}

	// A new template is a new generation: reported again, once, and the
	// Available condition keeps its transition time.
	available := d.Status.Conditions[0].LastTransitionTime
	d.Spec.Template.Annotations = map[string]string{"rolled": "1"}
	must(t, k.Update(ctx, &d))
	reconcileOnce(t, deployments, ns, "api")
	reconcileOnce(t, deployments, ns, "api")
	if got := writes.take(); len(got) != 1 {
		t.Fatalf("new generation: wrote %v, want one status patch", got)
	}
	must(t, k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "api"}, &d))
	must(t, checkRolledOut(&d))
	if d.Generation != 2 {
		t.Fatalf("generation %d, want 2", d.Generation)
	}
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable && !c.LastTransitionTime.Equal(&available) {
			t.Errorf("Available transition time moved from %v to %v without a status change", available, c.LastTransitionTime)
		}
	}
}

func TestSuspendedJobIsLeftAlone(t *testing.T) {
	const ns = "workloads-suspended"
	ctx := context.Background()
	k := newClient(t, nil)
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, k.Create(ctx, newJob(ns, "held", true)))
	var writes writeCounter
	reconcileOnce(t, standins.NewJobCompleter(newClient(t, writes.wrap)), ns, "held")
	if got := writes.take(); len(got) != 0 {
		t.Fatalf("suspended Job written: %v", got)
	}
	var j batchv1.Job
	must(t, k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "held"}, &j))
	if len(j.Status.Conditions) != 0 || j.Status.CompletionTime != nil {
		t.Fatalf("suspended Job has status %+v", j.Status)
	}
}

func TestManagerCompletesJobsAndRollsOutDeployments(t *testing.T) {
	scheme, err := standins.NewScheme()
	must(t, err)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	must(t, err)
	must(t, standins.SetupWorkloadsWithManager(mgr))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = mgr.Start(ctx) }()

	const ns = "workloads-watched"
	k := newClient(t, nil)
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, k.Create(ctx, newJob(ns, "db-sync", false)))
	must(t, k.Create(ctx, newDeployment(ns, "api", 1)))
	check := func() error {
		var j batchv1.Job
		if err := k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "db-sync"}, &j); err != nil {
			return err
		}
		if err := checkJobComplete(&j); err != nil {
			return fmt.Errorf("Job: %w", err)
		}
		var d appsv1.Deployment
		if err := k.Get(ctx, client.ObjectKey{Namespace: ns, Name: "api"}, &d); err != nil {
			return err
		}
		return checkRolledOut(&d)
	}
	deadline := time.Now().Add(30 * time.Second)
	for err = check(); err != nil; err = check() {
		if time.Now().After(deadline) {
			t.Fatalf("stand-ins did not report the Job and the Deployment: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
