// Package controller reconciles Placement CRs through the shared pipeline.
package controller

import (
	"context"
	"slices"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/service"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

type step = pipeline.Step[*PlacementReconciler, *scope]

// steps is the Placement step table: the Ready aggregate, the metric labels
// and the docs derive from it. Head and Optional are the rows every service
// shares (secrets gate, DSN Secret; HTTPRoute, health probe, HPA,
// NetworkPolicy).
var steps = slices.Concat(service.Head[*PlacementReconciler, *scope](), []step{
	{Name: "Config", Condition: conditions.TypeSecretsReady, Run: (*PlacementReconciler).reconcileConfig},
	{Name: "Database", Condition: conditions.TypeDatabaseReady, Run: (*PlacementReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: conditions.TypeDeploymentReady, Run: (*PlacementReconciler).reconcileDeployment},
	pipeline.Parallel(service.Optional[*PlacementReconciler, *scope](placementv1.ConditionPlacementAPIReady)...),
})

// Profile tells the shared steps the Placement's names and API.
var Profile = service.Profile{
	Kind: "Placement", Service: placementv1.ServiceName, ManagedBy: "placement-operator", Finalizer: placementv1.Finalizer,
	APIPort: placementv1.APIPort, ProbePath: "/", APICondition: placementv1.ConditionPlacementAPIReady,
	DBTLSDir: render.DBTLSDir, Owned: operator.WorkloadKinds(),
}

// PlacementReconciler reconciles Placement objects.
type PlacementReconciler struct {
	service.Reconciler

	pipeline *pipeline.Pipeline[*PlacementReconciler, *scope]
}

// SubConditions are the conditions Ready is derived from.
func SubConditions() []string {
	return pipeline.New[*PlacementReconciler, *scope](nil, steps...).Conditions()
}

// Diagram draws the step table for the docs.
func Diagram() string {
	return pipeline.New[*PlacementReconciler, *scope](nil, steps...).Diagram()
}

// StepNames lists the sub-reconcilers in table order.
func StepNames() []string {
	return pipeline.New[*PlacementReconciler, *scope](nil, steps...).StepNames()
}

// Reconcile runs one pass for a Placement.
func (r *PlacementReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return service.Pass(ctx, &r.Reconciler, req, &placementv1.Placement{}, r.run)
}

func (r *PlacementReconciler) run(ctx context.Context, p *placementv1.Placement, t targetcluster.Target) (pipeline.Outcome, error) {
	s := &scope{Scope: service.NewScope(r.Profile, r.Scheme, p, t), placement: p}
	return r.pipeline.Run(ctx, r, s)
}
