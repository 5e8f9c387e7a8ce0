package controller

import (
	"context"
	"fmt"
	"net"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/openbao"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// Requeue intervals of the store controller.
const (
	// requeueStoreParent backs a store whose parent or its cluster is missing.
	requeueStoreParent = 15 * time.Second
	// requeueStoreWait backs every waiting or failure state.
	requeueStoreWait = 30 * time.Second
	// revalidateStore rechecks a brownfield store, or a managed one whose
	// secret ID has no TTL.
	revalidateStore = 15 * time.Minute
)

// StoreReconciler is the single writer of BarbicanSecretStore status. It
// checks the store's credentials against its server with exactly the calls
// of barbican-api.md §2.5, mints a managed store's AppRole secret ID, and
// reports whether the parent's live Deployment mounts the store's section.
// Stores carry no finalizer: what a store leaves behind is retained (§6).
type StoreReconciler struct {
	// Client reads and writes the management cluster (stores, parents,
	// instances, ServiceAccount tokens).
	Client client.Client
	Scheme *runtime.Scheme
	// Recorder emits the Warning of each failure state on the store.
	Recorder events.EventRecorder
	// Resolver maps the parent Barbican's target cluster, where the
	// credentials Secrets and the Deployment live.
	Resolver *targetcluster.Resolver
	// Remints counts re-mints by trigger.
	Remints *prometheus.CounterVec
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Timeout bounds each OpenBao call; openbao.DefaultTimeout when zero.
	Timeout time.Duration
	// Dial opens the connections to the servers; nil dials their hosts
	// (the manager passes its --resolve table).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Reconcile computes CredentialsReady, ProvisioningReady (managed),
// ConfigProjected and Ready. It never returns an error for a state of the
// store's server or inputs: those are conditions, Warnings and a requeue.
func (r *StoreReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var st barbicanv1.BarbicanSecretStore
	if err := r.Client.Get(ctx, req.NamespacedName, &st); err != nil {
		if apierrors.IsNotFound(err) {
			r.dropSeries(req.Name, req.Namespace)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !st.DeletionTimestamp.IsZero() {
		r.dropSeries(st.Name, st.Namespace)
		return ctrl.Result{}, nil
	}
	before := *st.Status.DeepCopy()
	p := &storePass{r: r, store: &st, prev: before.Conditions}
	// An error still writes what the pass found (a pair minted before it,
	// say) before it is returned for backoff.
	requeue, evalErr := p.evaluate(ctx)
	parts := []string{barbicanv1.ConditionCredentialsReady, barbicanv1.ConditionConfigProjected}
	if st.Managed() {
		parts = []string{barbicanv1.ConditionCredentialsReady, barbicanv1.ConditionProvisioningReady, barbicanv1.ConditionConfigProjected}
	} else {
		meta.RemoveStatusCondition(&st.Status.Conditions, barbicanv1.ConditionProvisioningReady)
	}
	attach.Aggregate(&st.Status.Conditions, st.Generation, "credentials accepted and store projected", parts...)
	st.Status.ObservedGeneration = st.Generation
	if !equality.Semantic.DeepEqual(before, st.Status) {
		err := r.Client.Status().Update(ctx, &st)
		if apierrors.IsConflict(err) {
			// The pass read a store one write behind. The newer version may
			// be this controller's own status write, which its predicate
			// drops: run again now rather than at the next requeue.
			return ctrl.Result{RequeueAfter: time.Second}, evalErr
		}
		if err != nil {
			return ctrl.Result{}, fmt.Errorf("updating BarbicanSecretStore status: %w", err)
		}
	}
	if evalErr != nil {
		return ctrl.Result{}, evalErr
	}
	return ctrl.Result{RequeueAfter: requeue}, nil
}

func (r *StoreReconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// dropSeries deletes the re-mint series of a store that is gone.
func (r *StoreReconciler) dropSeries(name, namespace string) {
	if r.Remints != nil {
		r.Remints.DeletePartialMatch(prometheus.Labels{"store": name, "namespace": namespace})
	}
}

// storePass is one evaluation of a store.
type storePass struct {
	r     *StoreReconciler
	store *barbicanv1.BarbicanSecretStore
	// prev are the conditions before the pass: a Warning is emitted when a
	// condition enters a failure state, not on every pass it stays there.
	prev []metav1.Condition
	// target is the parent's children's cluster.
	target targetcluster.Target
}

// evaluate sets the conditions and returns the requeue.
func (p *storePass) evaluate(ctx context.Context) (time.Duration, error) {
	st := p.store
	var parent barbicanv1.Barbican
	err := p.r.Client.Get(ctx, client.ObjectKey{Namespace: st.Namespace, Name: st.Spec.BarbicanRef.Name}, &parent)
	if apierrors.IsNotFound(err) {
		p.setFalse(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonWaitingForParent,
			fmt.Sprintf("Barbican %s does not exist; nothing is minted until it does", st.Spec.BarbicanRef.Name), false)
		p.setFalse(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonWaitingForProjection, "no parent Barbican projects the store", false)
		return requeueStoreParent, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading Barbican %s: %w", st.Spec.BarbicanRef.Name, err)
	}
	t, err := p.r.Resolver.Resolve(ctx, client.ObjectKeyFromObject(&parent), parent.Spec.TargetClusterRef)
	if err != nil {
		p.setFalse(barbicanv1.ConditionCredentialsReady, conditions.ReasonTargetClusterUnavailable, err.Error(), false)
		p.setFalse(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonWaitingForProjection, "the parent Barbican's target cluster is unavailable", false)
		return requeueStoreParent, nil
	}
	p.target = t
	var requeue time.Duration
	if st.Managed() {
		requeue, err = p.managed(ctx)
	} else {
		requeue, err = p.brownfield(ctx)
	}
	if err != nil {
		return 0, err
	}
	return p.projected(ctx, &parent, requeue)
}

// projected sets ConfigProjected once CredentialsReady is True: the
// parent's live Deployment mounts a config Secret whose barbican.conf has
// the line [secretstore:<store>]. A read error never demotes a True
// condition.
func (p *storePass) projected(ctx context.Context, parent *barbicanv1.Barbican, requeue time.Duration) (time.Duration, error) {
	conds := p.store.Status.Conditions
	if !meta.IsStatusConditionTrue(conds, barbicanv1.ConditionCredentialsReady) {
		p.setFalse(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonWaitingForProjection, "waiting for CredentialsReady", false)
		return requeue, nil
	}
	ok, msg, err := attach.Projected(ctx, p.target, attach.Mount{
		Namespace: parent.Namespace, Deployment: parent.Name, Volume: render.ConfigVolume, Key: render.KeyConf,
		Line: "[secretstore:" + p.store.Name + "]",
	})
	if err != nil {
		// A read error never demotes a True condition; otherwise it is a wait.
		if !meta.IsStatusConditionTrue(conds, barbicanv1.ConditionConfigProjected) {
			p.setFalse(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonWaitingForProjection, err.Error(), false)
		}
		return min(requeue, requeueStoreWait), nil
	}
	if !ok {
		p.setFalse(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonWaitingForProjection, msg, true)
		return min(requeue, requeueStoreWait), nil
	}
	p.setTrue(barbicanv1.ConditionConfigProjected, barbicanv1.ReasonConfigProjected, msg)
	return requeue, nil
}

// validated records the pair the server accepted (status.credentialsHash).
func (p *storePass) validated(roleID, secretID []byte) {
	p.store.Status.CredentialsHash = pairDigest(roleID, secretID)
}

// pairDigest is the SHA-256 of an AppRole pair, the role ID and secret ID
// joined by a NUL (neither holds one).
func pairDigest(roleID, secretID []byte) string {
	return secrets.Digest(slices.Concat(roleID, []byte{0}, secretID))
}

func (p *storePass) setTrue(condType, reason, msg string) {
	conditions.True(&p.store.Status.Conditions, p.store.Generation, condType, reason, msg)
}

// setFalse sets a False condition; warn emits a Warning with the same
// reason when the condition enters that state (WaitingForProjection,
// WaitingForParent and TargetClusterUnavailable never warn).
func (p *storePass) setFalse(condType, reason, msg string, warn bool) {
	old := meta.FindStatusCondition(p.prev, condType)
	conditions.False(&p.store.Status.Conditions, p.store.Generation, condType, reason, msg)
	if !warn || reason == barbicanv1.ReasonWaitingForProjection {
		return
	}
	if old == nil || old.Status != "False" || old.Reason != reason {
		p.r.Recorder.Eventf(p.store, nil, corev1.EventTypeWarning, reason, condType, "%s", msg)
	}
}

// fail sets a failure state of condType and asks for the wait requeue.
func (p *storePass) fail(condType, reason, msg string) (time.Duration, error) {
	p.setFalse(condType, reason, msg, true)
	return requeueStoreWait, nil
}

// client builds the OpenBao client for the store's server.
func (p *storePass) client(url string, ca []byte, namespace string) (*openbao.Client, error) {
	return openbao.New(openbao.Config{URL: url, CAPEM: ca, Namespace: namespace, Timeout: p.r.Timeout, Dial: p.r.Dial})
}
