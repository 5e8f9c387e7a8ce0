// Package controller reconciles Barbican CRs through the shared pipeline, and
// BarbicanSecretStore CRs, whose status only their own controller writes.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
)

type step = pipeline.Step[*BarbicanReconciler, *scope]

// steps is the Barbican step table (service.Steps adds the shared head and
// optional group). DBClean runs ahead of Database: the Database step stops
// the pipeline while a migration runs, the one window the CronJob must be
// suspended in.
var steps = service.Steps(barbicanv1.ConditionBarbicanAPIReady, []step{
	{Name: "SecretStores", Condition: barbicanv1.ConditionSecretStoresReady, Run: (*BarbicanReconciler).reconcileSecretStores},
	{Name: "Config", Condition: conditions.TypeSecretsReady, Run: (*BarbicanReconciler).reconcileConfig},
	{Name: "DBClean", Condition: barbicanv1.ConditionDBCleanReady, Run: (*BarbicanReconciler).reconcileDBClean},
	{Name: "Database", Condition: conditions.TypeDatabaseReady, Run: (*BarbicanReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: conditions.TypeDeploymentReady, Run: (*BarbicanReconciler).reconcileDeployment},
})

// BarbicanReconciler reconciles Barbican objects.
type BarbicanReconciler struct {
	service.Reconciler

	pipeline *pipeline.Pipeline[*BarbicanReconciler, *scope]
}

// Pipeline is the step table as a pipeline without metrics, for the Ready
// aggregate's conditions, the step names and the docs' diagram.
var Pipeline = pipeline.New[*BarbicanReconciler, *scope](nil, steps...)

// Reconcile runs one pass for a Barbican.
func (r *BarbicanReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return service.Run(ctx, r, req, &barbicanv1.Barbican{}, r.pipeline, newScope)
}
