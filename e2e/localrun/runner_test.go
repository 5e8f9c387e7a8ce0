package localrun

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The runner's pod status writes go to a real kube-apiserver.
var cfg *rest.Config

func TestMain(m *testing.M) {
	os.Exit(testenv.Main(m, testenv.Options{WithoutGatewayAPI: true}, &cfg))
}

// crashOnce is an API container that exits at its first start and serves
// HTTP on the port the runner gives it from its second start on (its
// directory outlives a restart, as a container's writable layer does).
const crashOnce = `if [ -e started ]; then exec python3 -m http.server "$1" --bind 127.0.0.1; fi; touch started; exit 3`

// An API process that dies on its own is started again after the back-off,
// as the kubelet restarts a failed container, and the pod turns Ready with
// restartCount 1; one that Kill ended stays down and the pod not Ready.
func TestCrashedAPIProcessRestartsKilledStaysDown(t *testing.T) {
	c, err := client.New(cfg, client.Options{})
	poll.Must(t, err)
	ctx := t.Context()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "restart"}}
	poll.Must(t, c.Create(ctx, ns))
	profile := Profile{
		ManagedBy: "localrun-test", APIContainer: "api",
		// No such kind here: the probe annotation is left alone.
		CR: schema.GroupVersionKind{Group: "test.c5c3.io", Version: "v1", Kind: "Absent"},
		Map: func(argv []string, port int, _ string) ([]string, error) {
			return append(argv[:len(argv):len(argv)], strconv.Itoa(port)), nil
		},
	}
	r := &Runner{Client: c, Profiles: []Profile{profile}, RestartBackoff: 100 * time.Millisecond, pods: map[types.UID]*process{}}
	t.Cleanup(func() {
		r.Stop()
		if left := localsvc.Leftovers(); len(left) > 0 {
			t.Errorf("processes left running: %v", left)
		}
	})

	pod := runningPod(t, c, ns.Name)
	if _, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(pod)}); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, time.Minute, func() error {
		poll.Must(t, c.Get(ctx, client.ObjectKeyFromObject(pod), pod))
		if st := pod.Status.ContainerStatuses[0]; !st.Ready || st.RestartCount != 1 {
			return fmt.Errorf("container status %+v, want ready after one restart", st)
		}
		return nil
	})

	r.mu.Lock()
	serving := r.pods[pod.UID]
	r.mu.Unlock()
	if n := r.Kill(ns.Name); n != 1 {
		t.Fatalf("Kill ended %d processes, want 1", n)
	}
	<-serving.watched // the runner decided about a restart
	poll.Until(t, time.Minute, func() error {
		poll.Must(t, c.Get(ctx, client.ObjectKeyFromObject(pod), pod))
		if st := pod.Status.ContainerStatuses[0]; st.Ready || st.RestartCount != 1 {
			return fmt.Errorf("container status %+v, want not ready and no further restart", st)
		}
		return nil
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pods[pod.UID] != serving || !serving.proc.Exited() {
		t.Fatal("the killed API process was started again")
	}
	if log := serving.proc.Log(); !strings.Contains(log, `"GET / HTTP/1.1" 200`) {
		t.Errorf("the restarted process did not serve: %q", log)
	}
}

// A Job's pod that the runner sees before its cache holds the Job is
// looked at again (Reconcile returns an error, so it is requeued) instead
// of being dropped: once the Job is there, the pod runs and its exit code
// is written.
func TestJobPodWaitsForItsJob(t *testing.T) {
	c, err := client.New(cfg, client.Options{})
	poll.Must(t, err)
	ctx := t.Context()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "jobwait"}}
	poll.Must(t, c.Create(ctx, ns))
	r := &Runner{Client: c, Profiles: []Profile{{ManagedBy: "localrun-test"}}, pods: map[types.UID]*process{}}
	t.Cleanup(r.Stop)

	spec := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{
		Name: "job", Image: "job", Command: []string{"/bin/sh", "-c", "exit 0"}}}}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: "late-0",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: "late", UID: "job-uid", Controller: new(true)}}},
		Spec: *spec.DeepCopy(),
	}
	pod.Spec.NodeName = "node"
	poll.Must(t, c.Create(ctx, pod))
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning}
	poll.Must(t, c.Status().Update(ctx, pod))
	req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(pod)}

	if _, err := r.Reconcile(ctx, req); err == nil {
		t.Fatal("Reconcile of a Job pod whose Job is not there yet returned no error: the pod would never be looked at again")
	}
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns.Name, Name: "late", Labels: map[string]string{labelManagedBy: "localrun-test"}},
		Spec:       batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: spec}},
	}
	poll.Must(t, c.Create(ctx, job))
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	poll.Until(t, time.Minute, func() error {
		poll.Must(t, c.Get(ctx, req.NamespacedName, pod))
		if got := pod.Annotations[ExitCodeAnnotation]; got != "0" {
			return fmt.Errorf("exit code annotation %q, want 0", got)
		}
		return nil
	})
}

// runningPod creates a ReplicaSet's pod of the test profile, scheduled and
// Running but not Ready, as kwok leaves a pod with a readiness probe. Its
// containers are the given ones, or one "api" container running crashOnce.
func runningPod(t *testing.T, c client.Client, ns string, containers ...corev1.Container) *corev1.Pod {
	t.Helper()
	if len(containers) == 0 {
		containers = []corev1.Container{{Name: "api", Image: "api", Command: []string{"/bin/sh", "-c", crashOnce, "sh"}}}
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "api-0", Labels: map[string]string{labelManagedBy: "localrun-test"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "api", UID: "rs-uid", Controller: new(true)}}},
		Spec: corev1.PodSpec{NodeName: "node", Containers: containers},
	}
	poll.Must(t, c.Create(t.Context(), pod))
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning,
		Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}, {Type: corev1.ContainersReady, Status: corev1.ConditionFalse}},
		ContainerStatuses: []corev1.ContainerStatus{{Name: "api", Image: "api"}}}
	poll.Must(t, c.Status().Update(t.Context(), pod))
	return pod
}

// A Stop while an API pod's containers start (the API process launched,
// its sidecar not yet) leaves nothing running: Stop waits for the start,
// and the start, finding the runner stopped, stops the API process and
// the sidecar it launched instead of remembering the pod.
func TestStopWhileAPIPodStartsLeavesNothingRunning(t *testing.T) {
	c, err := client.New(cfg, client.Options{})
	poll.Must(t, err)
	ctx := t.Context()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "stopwhilestarting"}}
	poll.Must(t, c.Create(ctx, ns))
	// The second container prepared is the sidecar: its preparation waits
	// until the test lets it go on.
	var calls atomic.Int32
	atSidecar, goOn := make(chan struct{}), make(chan struct{})
	profile := Profile{
		ManagedBy: "localrun-test", APIContainer: "api", Sidecars: []string{"side"},
		CR:  schema.GroupVersionKind{Group: "test.c5c3.io", Version: "v1", Kind: "Absent"},
		Map: func(argv []string, _ int, _ string) ([]string, error) { return argv, nil },
	}
	r := &Runner{Client: c, Profiles: []Profile{profile}, pods: map[types.UID]*process{},
		Hosts: func(context.Context, string) ([]string, error) {
			if calls.Add(1) == 2 {
				close(atSidecar)
				<-goOn
			}
			return nil, nil
		}}

	pod := runningPod(t, c, ns.Name,
		corev1.Container{Name: "api", Image: "api", Command: []string{"sleep", "300"}},
		corev1.Container{Name: "side", Image: "side", Command: []string{"sleep", "300"}})
	reconciled := make(chan error, 1)
	go func() {
		_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(pod)})
		reconciled <- err
	}()
	<-atSidecar
	stopped := make(chan struct{})
	go func() {
		r.Stop()
		close(stopped)
	}()
	<-r.quit() // Stop has begun: the runner is stopped
	close(goOn)
	poll.Must(t, <-reconciled)
	<-stopped

	var left []string
	for _, l := range localsvc.Leftovers() {
		if strings.HasPrefix(l, "api ") || strings.HasPrefix(l, "side ") {
			left = append(left, l)
		}
	}
	if len(left) > 0 {
		t.Fatalf("processes of the pod left running after Stop: %v", left)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pods) != 0 {
		t.Errorf("a pod entry was added after Stop: %v", r.pods)
	}
}
