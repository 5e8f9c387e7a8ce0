// Package controller reconciles Placement CRs through the shared pipeline.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

type step = pipeline.Step[*PlacementReconciler, *scope]

// steps is the Placement step table, from which the Ready aggregate, the
// metric labels and the docs derive; service.Steps puts the shared head
// before these rows and the shared optional group after them.
var steps = service.Steps(placementv1.ConditionPlacementAPIReady, []step{
	{Name: "Config", Condition: conditions.TypeSecretsReady, Run: (*PlacementReconciler).reconcileConfig},
	{Name: "Database", Condition: conditions.TypeDatabaseReady, Run: (*PlacementReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: conditions.TypeDeploymentReady, Run: (*PlacementReconciler).reconcileDeployment},
})

// PlacementReconciler reconciles Placement objects.
type PlacementReconciler struct {
	service.Reconciler

	pipeline *pipeline.Pipeline[*PlacementReconciler, *scope]
}

// Pipeline is the step table as a pipeline without metrics, for the Ready
// aggregate's conditions, the step names and the docs' diagram.
var Pipeline = pipeline.New[*PlacementReconciler, *scope](nil, steps...)

// Reconcile runs one pass for a Placement.
func (r *PlacementReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return service.Run(ctx, r, req, &placementv1.Placement{}, r.pipeline, newScope)
}
