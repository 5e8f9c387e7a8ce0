package service

import (
	"context"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/finalize"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/pass"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/perf/probe"
)

// Requeue intervals of the seeds, one per kind of wait.
const (
	// RequeueRollout polls a Deployment that is not ready yet.
	RequeueRollout = 10 * time.Second
	// RequeueRouteAcceptance polls an HTTPRoute the Gateway has not accepted yet.
	RequeueRouteAcceptance = 10 * time.Second
	// RequeueProbe retries a failed health probe.
	RequeueProbe = 10 * time.Second
	// RequeueSecrets polls the secret store and credential Secrets.
	RequeueSecrets = 15 * time.Second
	// RequeueDatabase polls MariaDB and the migration Jobs.
	RequeueDatabase = 30 * time.Second
	// RequeuePromoted follows a pass that moved installedRelease from an
	// earlier release (Run).
	RequeuePromoted = 100 * time.Millisecond
)

// DefaultClusterDomain is the DNS domain of a cluster unless its kubelets
// are configured otherwise (--cluster-domain).
const DefaultClusterDomain = "cluster.local"

// Reconciler holds what every service operator's reconciler needs. An
// operator's reconciler embeds it and adds its step table.
type Reconciler struct {
	// Client reads and writes the management cluster (CRs, status, events).
	Client client.Client
	Scheme *runtime.Scheme
	// Recorder emits events on the CR.
	Recorder events.EventRecorder
	Metrics  *metrics.Set
	// Resolver maps spec.targetClusterRef to the children's cluster.
	Resolver *targetcluster.Resolver
	// Probe caches passing health probes.
	Probe *probe.Cache
	// HTTP sends the health probe.
	HTTP *http.Client
	// ClusterDomain is the cluster's DNS domain, which the in-cluster API URL
	// (health probe, status.endpoint without a gateway) ends in; empty means
	// DefaultClusterDomain.
	ClusterDomain string
	// ProbeURL maps a CR's in-cluster API URL to the URL the operator can
	// reach (identity in a cluster; a port-forward or proxy outside one).
	ProbeURL func(cr client.Object, inCluster string) string
	// OperatorNamespace is allowed into the NetworkPolicy when known.
	OperatorNamespace string
	// GatewayAPI reports whether the management cluster serves HTTPRoute (probed at setup).
	GatewayAPI bool
	// AbandonGrace is how long deletion waits for an unreachable target cluster.
	AbandonGrace time.Duration
	// Profile names the operator's CR, children and API.
	Profile Profile

	subConditions []string
	deletion      *finalize.Flow
	// fresh skips passes over cached CRs older than our own writes.
	fresh *pass.Freshness
}

// ServiceReconciler gives the shared steps the shared reconciler of an
// operator's reconciler (which embeds it): a generic step reaches it
// through the EmbedsReconciler constraint.
func (r *Reconciler) ServiceReconciler() *Reconciler { return r }

// Init readies the reconciler for its first pass: subConditions feed the
// Ready aggregate (the step table's conditions), the deletion flow is wired.
func (r *Reconciler) Init(subConditions []string) error {
	kinds, err := managerconfig.ProjectedKinds(r.Scheme, r.Profile.Owned)
	if err != nil {
		return err
	}
	r.subConditions = subConditions
	r.fresh = &pass.Freshness{}
	r.deletion = &finalize.Flow{
		Client:        r.Client,
		Recorder:      r.Recorder,
		Finalizer:     r.Profile.Finalizer,
		Kind:          r.Profile.Kind,
		AbandonGrace:  r.AbandonGrace,
		RemoteKinds:   kinds,
		SubConditions: subConditions,
		OnRelease: func(key types.NamespacedName) {
			r.Metrics.DropCR(key.Name, key.Namespace)
			r.Probe.Evict(key)
		},
	}
	return nil
}

// Pass reads the CR named by req into obj and runs one pass over it: run
// gets the resolved target. A CR that is gone is forgotten and releases its
// target cluster.
func Pass[T Object](ctx context.Context, r *Reconciler, req ctrl.Request, obj T,
	run func(context.Context, T, targetcluster.Target) (pipeline.Outcome, error)) (ctrl.Result, error) {
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		if apierrors.IsNotFound(err) {
			r.fresh.Forget(req.NamespacedName)
			if r.Resolver != nil {
				r.Resolver.Release(req.NamespacedName)
			}
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := pass.Run(ctx, r.Client, obj, pass.Hooks[T]{
		Finalizers:    func(cr T) []string { return r.finalizers(cr) },
		Resolve:       func(ctx context.Context, cr T) (targetcluster.Target, error) { return r.resolve(ctx, cr) },
		Delete:        func(ctx context.Context, cr T) (ctrl.Result, error) { return r.finalize(ctx, cr) },
		Run:           run,
		SubConditions: r.subConditions,
		Fresh:         r.fresh,
	})
	// A CR being deleted has its series dropped when its finalizer goes.
	if obj.GetDeletionTimestamp().IsZero() {
		r.Metrics.SetReady(obj.GetName(), obj.GetNamespace(),
			meta.IsStatusConditionTrue(obj.ServiceStatus().Conditions, conditions.TypeReady))
	}
	return res, err
}

func (r *Reconciler) finalizers(cr Object) []string {
	if cr.ServiceSpec().TargetClusterRef != nil {
		return []string{r.Profile.Finalizer, targetcluster.RemoteChildrenFinalizer}
	}
	return []string{r.Profile.Finalizer}
}

func (r *Reconciler) resolve(ctx context.Context, cr Object) (targetcluster.Target, error) {
	return r.Resolver.Resolve(ctx, client.ObjectKeyFromObject(cr), cr.ServiceSpec().TargetClusterRef)
}

func (r *Reconciler) finalize(ctx context.Context, cr Object) (ctrl.Result, error) {
	return r.deletion.Run(ctx, cr, cr.ServiceSpec().TargetClusterRef != nil, func(ctx context.Context) (targetcluster.Target, error) {
		return r.resolve(ctx, cr)
	})
}

// Run is an operator's Reconcile: one pass (Pass) running the step table p
// on the scope that scope builds from the shared one and the CR. A pass
// that moves installedRelease from an earlier release (a db-sync or an
// upgrade's contract done) asks for the next one at once: steps it ran
// before the move acted on the old release (the upgrade's db-sync on the
// new image, Barbican's db-clean CronJob held for the migration), and no
// child need change to bring that pass.
func Run[R EmbedsReconciler, S StepScope[S], T Object](ctx context.Context, r R, req ctrl.Request, obj T,
	p *pipeline.Pipeline[R, S], scope func(Scope, T) S) (ctrl.Result, error) {
	core := r.ServiceReconciler()
	return Pass(ctx, core, req, obj, func(ctx context.Context, cr T, t targetcluster.Target) (pipeline.Outcome, error) {
		from := cr.ServiceStatus().InstalledRelease
		out, err := p.Run(ctx, r, scope(NewScope(core.Profile, core.Scheme, cr, t), cr))
		return afterPromotion(from, cr.ServiceStatus().InstalledRelease, out), err
	})
}

// afterPromotion is the outcome of a pass that left installedRelease at to
// (from before it): out, or RequeuePromoted if sooner when the pass moved
// it from an earlier release. A first install (from empty) needs no extra
// pass: its rollout brings the next.
func afterPromotion(from, to string, out pipeline.Outcome) pipeline.Outcome {
	if from == "" || to == from {
		return out
	}
	return pipeline.Earliest(out, pipeline.RequeueAfter(RequeuePromoted))
}
