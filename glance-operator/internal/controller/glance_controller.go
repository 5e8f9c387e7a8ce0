// Package controller reconciles Glance CRs through the shared pipeline, and
// GlanceBackend CRs, whose status only their own controller writes.
package controller

import (
	"context"
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/service"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

type step = pipeline.Step[*GlanceReconciler, *scope]

// steps is the Glance step table: the Ready aggregate, the metric labels and
// the docs derive from it. Head and Optional are the rows every service
// shares (secrets gate, DSN Secret; HTTPRoute, health probe, HPA,
// NetworkPolicy).
var steps = slices.Concat(service.Head[*GlanceReconciler, *scope](), []step{
	{Name: "Backends", Condition: glancev1.ConditionBackendsReady, Run: (*GlanceReconciler).reconcileBackends},
	{Name: "Config", Condition: conditions.TypeSecretsReady, Run: (*GlanceReconciler).reconcileConfig},
	{Name: "Database", Condition: conditions.TypeDatabaseReady, Run: (*GlanceReconciler).reconcileDatabase},
	{Name: "Deployment", Condition: conditions.TypeDeploymentReady, Run: (*GlanceReconciler).reconcileDeployment},
	pipeline.Parallel(append(service.Optional[*GlanceReconciler, *scope](glancev1.ConditionGlanceAPIReady),
		step{Name: "DBPurge", Condition: glancev1.ConditionDBPurgeReady, Run: (*GlanceReconciler).reconcileDBPurge})...),
})

// Profile tells the shared steps the Glance's names and API. The route's
// 4h request timeout lets a long image transfer finish through the gateway.
var Profile = service.Profile{
	Kind: "Glance", Service: glancev1.ServiceName, ManagedBy: render.ManagedBy, Finalizer: glancev1.Finalizer,
	APIPort: glancev1.APIPort, ProbePath: "/healthcheck", APICondition: glancev1.ConditionGlanceAPIReady,
	DBTLSDir: render.DBTLSDir, RouteTimeout: "4h", Owned: operator.WorkloadKinds(&batchv1.CronJob{}),
}

// GlanceReconciler reconciles Glance objects.
type GlanceReconciler struct {
	service.Reconciler

	pipeline *pipeline.Pipeline[*GlanceReconciler, *scope]
}

// SubConditions are the conditions Ready is derived from.
func SubConditions() []string {
	return pipeline.New[*GlanceReconciler, *scope](nil, steps...).Conditions()
}

// StepNames lists the sub-reconcilers in table order.
func StepNames() []string {
	return pipeline.New[*GlanceReconciler, *scope](nil, steps...).StepNames()
}

// Reconcile runs one pass for a Glance.
func (r *GlanceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return service.Pass(ctx, &r.Reconciler, req, &glancev1.Glance{}, r.run)
}

func (r *GlanceReconciler) run(ctx context.Context, g *glancev1.Glance, t targetcluster.Target) (pipeline.Outcome, error) {
	s := &scope{Scope: service.NewScope(r.Profile, r.Scheme, g, t), glance: g}
	return r.pipeline.Run(ctx, r, s)
}
