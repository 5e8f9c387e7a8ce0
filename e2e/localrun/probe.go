package localrun

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/common/perf/probe"
)

// The CR's probe-URL annotation plays the Service: it points at one serving
// API process of the CR. It stays put while that process serves, so the
// CR's conditions name one process and not whichever started last, and it
// moves when that process stops or dies.

// adopt marks pr serving and points the probe at it, unless the probe
// already points at another serving process.
func (r *Runner) adopt(ctx context.Context, pr *process) error {
	r.mu.Lock()
	pr.serving = true
	r.mu.Unlock()
	return r.pointProbe(ctx, pr, func(current string) (string, bool) {
		return pr.url, current != pr.url && !r.servingURL(current) && r.isLive(pr)
	})
}

// moveOff points the probe away from pr (stopping or dead) to another
// serving process of the same CR, or removes it when there is none.
func (r *Runner) moveOff(ctx context.Context, pr *process) error {
	return r.pointProbe(ctx, pr, func(current string) (string, bool) {
		if current != pr.url {
			return "", false
		}
		return r.anotherServing(pr), true
	})
}

// pointProbe rewrites the probe-URL annotation of pr's CR to what choose
// returns for its current value ("" removes it; false leaves it). The
// optimistic lock makes processes that change it at the same time take
// turns, each deciding on the value the other wrote.
func (r *Runner) pointProbe(ctx context.Context, pr *process, choose func(current string) (string, bool)) error {
	// One change at a time: a process that moves the probe off itself must
	// see what a concurrent move wrote, or it could leave the probe on a
	// process that is stopping too.
	r.probeMu.Lock()
	defer r.probeMu.Unlock()
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cr := &unstructured.Unstructured{}
		cr.SetGroupVersionKind(pr.profile.CR)
		if err := r.Client.Get(ctx, types.NamespacedName{Namespace: pr.pod.Namespace, Name: pr.instance}, cr); err != nil {
			return client.IgnoreNotFound(err)
		}
		base := cr.DeepCopy()
		annotations := cr.GetAnnotations()
		next, write := choose(annotations[probe.URLAnnotation])
		if !write {
			return nil
		}
		if annotations == nil {
			annotations = map[string]string{}
		}
		if next == "" {
			delete(annotations, probe.URLAnnotation)
		} else {
			annotations[probe.URLAnnotation] = next
		}
		cr.SetAnnotations(annotations)
		return client.IgnoreNotFound(r.Client.Patch(ctx, cr, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})))
	})
}

// persist runs change until it succeeds or want turns false, waiting
// between attempts. A failed write of the probe annotation is transient
// here: the CR's mutating webhook is unreachable while a test restarts the
// operator, and an API process that became ready meanwhile must still get
// the probe once the webhook is back (nothing else would retry it).
func (r *Runner) persist(ctx context.Context, pr *process, what string, want func() bool, change func(context.Context, *process) error) {
	wait := 200 * time.Millisecond
	for {
		err := change(ctx, pr)
		// A cluster without the CR's kind (a target cluster: the CR is on
		// the management cluster) never takes the change.
		if err == nil || apierrors.IsNotFound(err) || meta.IsNoMatchError(err) || !want() {
			return
		}
		log.FromContext(ctx).Info("retrying: "+what, "pod", pr.pod, "url", pr.url, "error", err.Error(), "after", wait)
		select {
		case <-time.After(wait):
		case <-r.quit():
			return
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// quit is closed by Stop.
func (r *Runner) quit() <-chan struct{} {
	r.quitOnce.Do(func() { r.quitCh = make(chan struct{}) })
	return r.quitCh
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// isLive tells whether pr serves and has neither stopped nor exited.
func (r *Runner) isLive(pr *process) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return pr.live()
}

// servingURL tells whether url is that of a serving API process here.
func (r *Runner) servingURL(url string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.pods {
		if p.url == url && p.live() {
			return true
		}
	}
	return false
}

// anotherServing is the URL of another serving API process of pr's CR, or "".
func (r *Runner) anotherServing(pr *process) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.pods {
		if p != pr && p.live() && p.profile == pr.profile && p.pod.Namespace == pr.pod.Namespace && p.instance == pr.instance {
			return p.url
		}
	}
	return ""
}

// live: an API process that answered and has neither stopped nor exited.
// Called with r.mu held.
func (p *process) live() bool {
	return p.serving && !p.stopped && p.proc != nil && !p.proc.Exited()
}
