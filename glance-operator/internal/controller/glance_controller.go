// Package controller reconciles Glance CRs through the shared pipeline, and
// GlanceBackend CRs, whose status only their own controller writes.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

type step = pipeline.Step[*GlanceReconciler, *scope]

// steps is the Glance step table (service.Steps adds the shared head and
// optional group): the backends aggregate ahead of the config that renders
// them, and the purge CronJob runs beside the optional children.
var steps = service.Steps(glancev1.ConditionGlanceAPIReady, []step{
	{Name: "Backends", Condition: glancev1.ConditionBackendsReady, Run: (*GlanceReconciler).reconcileBackends},
	{Name: "Config", Condition: conditions.TypeSecretsReady, Run: (*GlanceReconciler).reconcileConfig},
	{Name: "Database", Condition: conditions.TypeDatabaseReady, Run: (*GlanceReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: conditions.TypeDeploymentReady, Run: (*GlanceReconciler).reconcileDeployment},
}, step{Name: "DBPurge", Condition: glancev1.ConditionDBPurgeReady, Run: (*GlanceReconciler).reconcileDBPurge})

// GlanceReconciler reconciles Glance objects.
type GlanceReconciler struct {
	service.Reconciler

	pipeline *pipeline.Pipeline[*GlanceReconciler, *scope]
}

// Pipeline is the step table as a pipeline without metrics, for the Ready
// aggregate's conditions, the step names and the docs' diagram.
var Pipeline = pipeline.New[*GlanceReconciler, *scope](nil, steps...)

// Reconcile runs one pass for a Glance.
func (r *GlanceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return service.Run(ctx, r, req, &glancev1.Glance{}, r.pipeline, newScope)
}
