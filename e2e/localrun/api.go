package localrun

import (
	"cmp"
	"context"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// The life of an API pod's process here: started on a free loopback port,
// the pod marked Ready once it answers, and, like the kubelet restarts a
// failed container, started again when it dies on its own.

// startAPI starts an API pod's container on a free loopback port; once it
// answers, the CR's probe goes there.
func (r *Runner) startAPI(ctx context.Context, pod *corev1.Pod, p *Profile) error {
	ct, err := r.prepare(ctx, pod, p, p.APIContainer)
	if err != nil {
		return err
	}
	pr := &process{pod: client.ObjectKeyFromObject(pod), profile: p, container: ct, instance: pod.Labels[labelInstance],
		watched: make(chan struct{})}
	argv := ct.Argv
	if err := r.launch(ctx, pr, argv); err != nil {
		ct.Release()
		return err
	}
	pr.sidecars = r.startSidecars(ctx, pod, p, ct)
	if !r.remember(pod.UID, pr) {
		// The runner stopped while the pod's containers started.
		stopNow(pr)
		return nil
	}
	go r.watch(ctx, pod.UID, pr, argv)
	return nil
}

// launch starts pr's container with argv mapped to a free loopback port.
func (r *Runner) launch(ctx context.Context, pr *process, argv []string) error {
	port, err := localsvc.FreePort()
	if err != nil {
		return err
	}
	ct := pr.container
	if ct.Argv, err = pr.profile.Map(argv, port, ct.Dir); err != nil {
		return err
	}
	proc, err := ct.Start()
	if err != nil {
		return err
	}
	pr.proc, pr.url = proc, "http://127.0.0.1:"+strconv.Itoa(port)+"/"
	r.track(proc)
	log.FromContext(ctx).Info("API process started", "pod", pr.pod, "url", pr.url, "log", proc.LogPath)
	return nil
}

// watch marks the pod Ready once pr's process answers and not Ready when it
// dies. A process that dies or never answers, and was neither stopped nor
// killed (Kill), is started again as the kubelet restarts a failed
// container, with a doubling back-off; its log goes to the error log so
// that a failed run shows why.
func (r *Runner) watch(ctx context.Context, uid types.UID, pr *process, argv []string) {
	defer close(pr.watched)
	bg := context.WithoutCancel(ctx)
	logger := log.FromContext(ctx).WithValues("pod", pr.pod, "url", pr.url, "restarts", pr.restarts)
	proc := pr.proc
	if err := localsvc.WaitHTTP(proc, pr.url+pr.profile.ReadyPath, 200, 3*time.Minute); err != nil {
		if !r.ended(pr) && !proc.Exited() {
			// A failed start-up probe: the kubelet kills the container.
			logger.Error(err, "API process not serving", "log", tail(proc.Log()))
			_ = proc.Stop(0)
		}
	} else {
		// As a kubelet whose readiness probe passed: the pod turns
		// Ready (a rollout goes on), then the Service sends traffic.
		r.persist(bg, pr, "marking the pod Ready", func() bool { return r.isLive(pr) },
			func(ctx context.Context, pr *process) error { return r.setReady(ctx, pr.pod, true) })
		r.persist(bg, pr, "pointing the probe at the API process", func() bool { return r.isLive(pr) }, r.adopt)
	}
	<-proc.Done()
	r.mu.Lock()
	stopped, killed := pr.stopped, pr.killed
	r.mu.Unlock()
	if !stopped {
		if !killed {
			logger.Error(nil, "API process exited", "exitCode", proc.ExitCode(), "log", tail(proc.Log()))
		}
		if err := r.setReady(bg, pr.pod, false); err != nil {
			logger.Error(err, "marking the pod not Ready")
		}
	}
	// Also after a stop: an adopt that raced the stop may have pointed
	// the probe here after stopPod moved it off.
	r.persist(bg, pr, "moving the probe off the dead process", func() bool { return true }, r.moveOff)
	if stopped || killed {
		return
	}
	if next := r.restart(ctx, uid, pr, argv); next != nil {
		go r.watch(ctx, uid, next, argv)
	}
}

// restart starts pr's container again after the kubelet's back-off (10 s,
// doubling up to 5 minutes), as a new process in pr's place; nil when the
// pod was stopped or killed meanwhile, or the runner stops.
func (r *Runner) restart(ctx context.Context, uid types.UID, pr *process, argv []string) *process {
	select {
	case <-time.After(min(cmp.Or(r.RestartBackoff, 10*time.Second)<<pr.restarts, 5*time.Minute)):
	case <-r.quit():
		return nil
	}
	next := &process{pod: pr.pod, profile: pr.profile, container: pr.container, instance: pr.instance, sidecars: pr.sidecars,
		restarts: pr.restarts + 1, watched: make(chan struct{})}
	r.mu.Lock()
	if r.pods[uid] != pr || pr.stopped || pr.killed {
		r.mu.Unlock()
		return nil
	}
	err := r.launch(ctx, next, argv)
	if err == nil {
		r.pods[uid] = next
	}
	r.mu.Unlock()
	if err != nil {
		log.FromContext(ctx).Error(err, "restarting the API process", "pod", pr.pod)
		return nil
	}
	if err := r.setRestarts(context.WithoutCancel(ctx), next.pod, pr.container.Name, next.restarts); err != nil {
		log.FromContext(ctx).Error(err, "reporting the restart", "pod", pr.pod)
	}
	return next
}

// ended tells whether pr was stopped (its pod went away) or killed.
func (r *Runner) ended(pr *process) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return pr.stopped || pr.killed
}
