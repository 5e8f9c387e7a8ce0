package localrun

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// ExitCodeAnnotation carries a Job pod's exit code to kwok's stages.
const ExitCodeAnnotation = "local-run.c5c3.io/exit-code"

// Labels every operator of the suite sets on its pods.
const (
	labelManagedBy = "app.kubernetes.io/managed-by"
	labelInstance  = "app.kubernetes.io/instance"
)

// Profile says how to run one operator's pods here.
type Profile struct {
	// ManagedBy is the pods' app.kubernetes.io/managed-by label.
	ManagedBy string
	// CR is the kind whose object (named by the pods' instance label) gets
	// the probe-URL annotation.
	CR schema.GroupVersionKind
	// APIContainer is the API container's name; Map maps its rendered
	// command to a free loopback port (given the container's directory).
	APIContainer string
	Map          func(argv []string, port int, dir string) ([]string, error)
	// Provide mounts machine directories at the image's paths in every
	// container of the operator's pods: trees an image ships where Debian
	// installs nothing.
	Provide map[string]string
	// ReadyPath answers 200 once the API serves ("" is /).
	ReadyPath string
	// Sidecars name the API pod's other containers to run beside it.
	Sidecars []string
	// Root is the root filesystem (hack/rootfs.sh) every container of the
	// operator's pods runs in; empty: this machine's.
	Root string
}

// Runner is the controller. Hosts, when set, lists the names that resolve
// to 127.0.0.1 inside the containers of a namespace (cluster Services whose
// servers run on this machine, e.g. the MariaDB).
type Runner struct {
	Client   client.Client
	Profiles []Profile
	Hosts    func(ctx context.Context, namespace string) ([]string, error)
	// JobTimeout bounds a Job pod's run (its exit code is then 124).
	JobTimeout time.Duration
	// RestartBackoff is the wait before an API process that died is
	// started again, doubled for each restart (the kubelet's 10 s when 0).
	RestartBackoff time.Duration

	mu   sync.Mutex
	pods map[types.UID]*process
	// stopped is set by Stop: no pod entry is added after it, and what a
	// start under way launched is stopped by the start itself (begin).
	stopped bool
	// probeMu serialises the changes of probe-URL annotations.
	probeMu sync.Mutex
	// busy counts the work Stop waits for: pod starts under way (begin),
	// Job runs and kubelet-style stops. It is only added to under mu while
	// the runner is not stopped, so no Add races Stop's Wait.
	busy sync.WaitGroup
	// quitCh (see quit) ends the retries of probe changes at Stop.
	quitOnce sync.Once
	quitCh   chan struct{}
	// gates hold Job pods per namespace (HoldJobs).
	gates map[string]*JobGate
	// launched are every process started for a pod (API processes and
	// sidecars), whatever pod entry holds it now: Stop ends any a pod entry
	// no longer names.
	launchedMu sync.Mutex
	launched   []*localsvc.Proc
}

// process is one pod's container running here.
type process struct {
	pod       types.NamespacedName
	profile   *Profile
	container *localsvc.Prepared
	proc      *localsvc.Proc
	url       string
	// instance names the CR (the pod's instance label) whose probe may
	// point here; serving is set once the process answers.
	instance string
	serving  bool
	stopped  bool
	// killed: Kill ended the process as a crash whose restarts keep
	// failing would; it is not started again.
	killed bool
	// sidecars run beside the API process, in the same pod.
	sidecars []*sidecar
	// restarts counts the starts before this one; watched is closed once
	// the runner no longer watches this process (and decided about a
	// restart).
	restarts int
	watched  chan struct{}
}

// SetupWithManager watches the profiles' pods.
func (r *Runner) SetupWithManager(mgr ctrl.Manager) error {
	r.pods = map[types.UID]*process{}
	// Job pods carry only the Job's own labels: they are matched by their
	// Job's labels in Reconcile.
	ours := predicate.NewPredicateFuncs(func(o client.Object) bool {
		owner := metav1.GetControllerOf(o)
		return r.profile(o.GetLabels()) != nil || (owner != nil && owner.Kind == "Job")
	})
	return ctrl.NewControllerManagedBy(mgr).Named("local-run").
		For(&corev1.Pod{}, builder.WithPredicates(ours)).
		Complete(r)
}

func (r *Runner) profile(labels map[string]string) *Profile {
	for i := range r.Profiles {
		if labels[labelManagedBy] == r.Profiles[i].ManagedBy {
			return &r.Profiles[i]
		}
	}
	return nil
}

// podProfile finds the profile of a pod, by its labels or its Job's.
func (r *Runner) podProfile(ctx context.Context, pod *corev1.Pod) (*Profile, error) {
	if p := r.profile(pod.Labels); p != nil {
		return p, nil
	}
	owner := metav1.GetControllerOf(pod)
	if owner == nil || owner.Kind != "Job" {
		return nil, nil
	}
	// The pod's Job comes through another watch than the pod: under load
	// the cache may not hold it yet. Not found is an error, so the pod is
	// looked at again (with back-off) rather than never run: a Job pod
	// gets no further event once it is Running. A pod whose Job is really
	// gone is garbage-collected and ends in Reconcile's not-found branch.
	var job batchv1.Job
	if err := r.Client.Get(ctx, client.ObjectKey{Namespace: pod.Namespace, Name: owner.Name}, &job); err != nil {
		return nil, fmt.Errorf("reading Job %s of pod %s: %w", owner.Name, pod.Name, err)
	}
	return r.profile(job.Labels), nil
}

// Reconcile starts what a scheduled pod runs, or stops it once the pod is
// gone.
func (r *Runner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var pod corev1.Pod
	err := r.Client.Get(ctx, req.NamespacedName, &pod)
	if apierrors.IsNotFound(err) || (err == nil && !pod.DeletionTimestamp.IsZero()) {
		r.stopPod(ctx, req.NamespacedName)
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if pod.Spec.NodeName == "" || pod.Status.Phase != corev1.PodRunning {
		return ctrl.Result{}, nil
	}
	p, err := r.podProfile(ctx, &pod)
	if p == nil || err != nil {
		return ctrl.Result{}, err
	}
	r.mu.Lock()
	_, known := r.pods[pod.UID]
	r.mu.Unlock()
	if known {
		return ctrl.Result{}, nil
	}
	if !r.begin() {
		return ctrl.Result{}, nil
	}
	defer r.busy.Done()
	switch owner := metav1.GetControllerOf(&pod); {
	case owner != nil && owner.Kind == "Job":
		if _, done := pod.Annotations[ExitCodeAnnotation]; done {
			return ctrl.Result{}, nil
		}
		return ctrl.Result{}, r.runJob(ctx, &pod, p)
	case owner != nil && owner.Kind == "ReplicaSet":
		return ctrl.Result{}, r.startAPI(ctx, &pod, p)
	}
	return ctrl.Result{}, nil
}

// begin counts a pod start in busy unless the runner has stopped (false):
// Stop then waits for the start, and the start, finding the runner stopped
// when it remembers the pod (remember), stops what it launched.
func (r *Runner) begin() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return false
	}
	r.busy.Add(1)
	return true
}

// prepare resolves the pod's container name (the first when empty).
func (r *Runner) prepare(ctx context.Context, pod *corev1.Pod, p *Profile, name string) (*localsvc.Prepared, error) {
	if name == "" && len(pod.Spec.Containers) > 0 {
		name = pod.Spec.Containers[0].Name
	}
	ct, err := localsvc.PreparePod(ctx, r.Client, pod, name)
	if err != nil {
		return nil, err
	}
	ct.Root = p.Root
	for source, target := range p.Provide {
		if err := ct.Provide(source, target); err != nil {
			ct.Release()
			return nil, err
		}
	}
	if r.Hosts != nil {
		if ct.Hosts, err = r.Hosts(ctx, pod.Namespace); err != nil {
			ct.Release()
			return nil, err
		}
	}
	return ct, nil
}

// runJob runs a Job pod's container to its end in the background and
// writes its exit code onto the pod.
func (r *Runner) runJob(ctx context.Context, pod *corev1.Pod, p *Profile) error {
	ct, err := r.prepare(ctx, pod, p, "")
	if err != nil {
		return err
	}
	key := client.ObjectKeyFromObject(pod)
	if !r.remember(pod.UID, &process{pod: key, profile: p, container: ct}) {
		ct.Release()
		return nil
	}
	timeout := r.JobTimeout
	if timeout == 0 {
		timeout = localsvc.RunTimeout
	}
	r.busy.Add(1)
	go func() {
		defer r.busy.Done()
		defer ct.Release()
		logger := log.FromContext(ctx).WithValues("pod", key)
		if owner := metav1.GetControllerOf(pod); owner != nil && !r.waitGate(key.Namespace, owner.Name) {
			logger.Info("job pod held until the runner stopped")
			return
		}
		code, out, err := ct.Run(ct.Dir, timeout)
		if err != nil {
			logger.Info("job pod did not finish", "error", err.Error())
			code = 124
		}
		logger.Info("job pod finished", "exitCode", code, "output", tail(out))
		patch := client.RawPatch(types.MergePatchType, fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`, ExitCodeAnnotation, strconv.Itoa(code)))
		if err := r.Client.Patch(context.WithoutCancel(ctx), &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}, patch); err != nil {
			logger.Error(err, "reporting the exit code")
		}
	}()
	return nil
}

// remember adds a pod entry, unless the runner has stopped (false): then
// the caller stops what it started for the pod.
func (r *Runner) remember(uid types.UID, p *process) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return false
	}
	r.pods[uid] = p
	return true
}

// stopPod stops the processes of a deleted pod the way the kubelet does.
func (r *Runner) stopPod(ctx context.Context, key types.NamespacedName) {
	r.mu.Lock()
	var stop []*process
	for uid, p := range r.pods {
		if p.pod == key && p.proc != nil && !p.stopped {
			p.stopped = true
			stop = append(stop, p)
			delete(r.pods, uid)
			r.busy.Add(1)
		}
	}
	r.mu.Unlock()
	for _, p := range stop {
		go func() {
			defer r.busy.Done()
			// A terminating pod leaves the Service's endpoints at once.
			r.persist(context.WithoutCancel(ctx), p, "moving the probe off the stopping process", func() bool { return true }, r.moveOff)
			if _, err := p.container.StopLikeKubelet(p.container.Dir, p.proc); err != nil {
				log.FromContext(ctx).Info("API process killed", "pod", key, "reason", err.Error())
			}
			stopSidecars(ctx, p.sidecars)
			p.container.Release()
		}()
	}
}

// Kill stops the API processes of the pods of a namespace abruptly, as a
// crash would; the runner then reports the pods not Ready and, unlike
// after a crash of the process itself, does not start them again.
func (r *Runner) Kill(namespace string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, p := range r.pods {
		if p.pod.Namespace == namespace && p.proc != nil && !p.proc.Exited() {
			p.killed = true
			_ = p.proc.Stop(0)
			n++
		}
	}
	return n
}

// Stop stops every process (at the end of a run), waiting for Job runs and
// pod stops under way.
func (r *Runner) Stop() {
	r.mu.Lock()
	all := r.pods
	r.pods = map[types.UID]*process{}
	r.stopped = true
	for _, p := range all {
		p.stopped = true
	}
	r.mu.Unlock()
	if quit := r.quit(); !closed(quit) {
		close(r.quitCh)
	}
	for _, p := range all {
		stopNow(p)
	}
	// Pod starts under way stop what they launched (remember), Job runs
	// end (quit), kubelet-style stops finish.
	r.busy.Wait()
	// A process no pod entry held any more would outlive the run: say so
	// (it is a bug here) and end it.
	r.launchedMu.Lock()
	defer r.launchedMu.Unlock()
	for _, proc := range r.launched {
		if !proc.Exited() {
			log.Log.Error(nil, "local-run: a process no pod held was still running; stopping it", "process", proc.Name, "pid", proc.Pid(), "log", proc.LogPath)
			_ = proc.Stop(10 * time.Second)
		}
	}
}

// stopNow stops a pod entry's sidecars and API process at once (the
// runner stops), and releases their containers.
func stopNow(p *process) {
	for _, sc := range p.sidecars {
		_ = sc.proc.Stop(10 * time.Second)
		sc.container.Release()
	}
	if p.proc != nil {
		_ = p.proc.Stop(10 * time.Second)
		p.container.Release()
	}
}

// track adds a process started for a pod to launched.
func (r *Runner) track(proc *localsvc.Proc) {
	r.launchedMu.Lock()
	defer r.launchedMu.Unlock()
	r.launched = append(slices.DeleteFunc(r.launched, (*localsvc.Proc).Exited), proc)
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
