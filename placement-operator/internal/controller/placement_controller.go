// Package controller reconciles Placement CRs through the shared pipeline.
package controller

import (
	"context"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/finalize"
	"github.com/c5c3/openstack-operators/common/metrics"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/probe"
	"github.com/c5c3/openstack-operators/common/reconcile"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

type step = pipeline.Step[*PlacementReconciler, *scope]

// steps is the Placement step table: the Ready aggregate, the metric labels
// and the docs derive from it.
var steps = []step{
	{Name: "Secrets", Condition: placementv1.ConditionSecretsReady, Run: (*PlacementReconciler).reconcileSecrets},
	{Name: "DBConnectionSecret", Condition: placementv1.ConditionSecretsReady, Run: (*PlacementReconciler).reconcileDBConnectionSecret},
	{Name: "Config", Condition: placementv1.ConditionSecretsReady, Run: (*PlacementReconciler).reconcileConfig},
	{Name: "Database", Condition: placementv1.ConditionDatabaseReady, Run: (*PlacementReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: placementv1.ConditionDeploymentReady, Run: (*PlacementReconciler).reconcileDeployment},
	pipeline.Parallel(
		step{Name: "HTTPRoute", Condition: placementv1.ConditionHTTPRouteReady, Run: (*PlacementReconciler).reconcileHTTPRoute},
		step{Name: "HealthCheck", Condition: placementv1.ConditionPlacementAPIReady, Run: (*PlacementReconciler).reconcileHealthCheck},
		step{Name: "HPA", Condition: placementv1.ConditionHPAReady, Run: (*PlacementReconciler).reconcileHPA},
		step{Name: "NetworkPolicy", Condition: placementv1.ConditionNetworkPolicyReady, Run: (*PlacementReconciler).reconcileNetworkPolicy},
	),
}

// DefaultClusterDomain is the DNS domain of a cluster unless its kubelets
// are configured otherwise (--cluster-domain).
const DefaultClusterDomain = "cluster.local"

// Requeue intervals of the seed.
const (
	requeueDeployment = 10 * time.Second
	requeueSecrets    = 15 * time.Second
	requeueDatabase   = 30 * time.Second
)

// PlacementReconciler reconciles Placement objects.
type PlacementReconciler struct {
	// Client reads and writes the management cluster (CRs, status, events).
	Client client.Client
	Scheme *runtime.Scheme
	// Recorder emits events on the Placement.
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
	// ProbeURL maps a Placement's in-cluster API URL to the URL the operator can
	// reach (identity in a cluster; a port-forward or proxy outside one).
	ProbeURL func(p *placementv1.Placement, inCluster string) string
	// OperatorNamespace is allowed into the NetworkPolicy when known.
	OperatorNamespace string
	// GatewayAPI reports whether the management cluster serves HTTPRoute (probed at setup).
	GatewayAPI bool
	// AbandonGrace is how long deletion waits for an unreachable target cluster.
	AbandonGrace time.Duration

	pipeline *pipeline.Pipeline[*PlacementReconciler, *scope]
	deletion *finalize.Flow
	// fresh skips passes over cached Placements older than our own writes.
	fresh reconcile.Freshness
}

// SubConditions are the conditions Ready is derived from.
func SubConditions() []string {
	return pipeline.New[*PlacementReconciler, *scope](nil, steps...).Conditions()
}

// StepNames lists the sub-reconcilers in table order.
func StepNames() []string {
	return pipeline.New[*PlacementReconciler, *scope](nil, steps...).StepNames()
}

// Reconcile runs one pass for a Placement.
func (r *PlacementReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var p placementv1.Placement
	if err := r.Client.Get(ctx, req.NamespacedName, &p); err != nil {
		if apierrors.IsNotFound(err) {
			r.fresh.Forget(req.NamespacedName)
			if r.Resolver != nil {
				// Gone: its target cluster stays engaged only for other CRs.
				r.Resolver.Release(req.NamespacedName)
			}
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return reconcile.Pass(ctx, r.Client, &p, reconcile.Hooks[*placementv1.Placement]{
		Finalizers:    finalizers,
		Resolve:       r.resolve,
		Delete:        r.finalize,
		Run:           r.run,
		SubConditions: r.pipeline.Conditions(),
		Fresh:         &r.fresh,
	})
}

func finalizers(p *placementv1.Placement) []string {
	if p.Spec.TargetClusterRef != nil {
		return []string{placementv1.Finalizer, targetcluster.RemoteChildrenFinalizer}
	}
	return []string{placementv1.Finalizer}
}

func (r *PlacementReconciler) resolve(ctx context.Context, p *placementv1.Placement) (targetcluster.Target, error) {
	return r.Resolver.Resolve(ctx, client.ObjectKeyFromObject(p), p.Spec.TargetClusterRef)
}

func (r *PlacementReconciler) run(ctx context.Context, p *placementv1.Placement, t targetcluster.Target) (pipeline.Outcome, error) {
	s := &scope{
		placement: p,
		target:    t,
		owner:     apply.Owner{Object: p, Kind: "Placement", Scheme: r.Scheme, Remote: t.Remote()},
	}
	return r.pipeline.Run(ctx, r, s)
}
