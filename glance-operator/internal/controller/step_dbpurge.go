package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// dbPurge names the purge CronJob's condition, reasons and series.
var dbPurge = service.Periodic{
	Condition: glancev1.ConditionDBPurgeReady,
	Scheduled: glancev1.ReasonDBPurgeScheduled,
	Suspended: glancev1.ReasonDBPurgeSuspended,
	Failed:    glancev1.ReasonDBPurgeJobFailed,
	Kind:      metrics.JobDBPurge,
	Suffix:    "db-purge",
	Deferred:  "DBPurgeMetricEmissionDeferred",
}

// reconcileDBPurge projects the <cr>-db-purge CronJob, mounting the config
// the Deployment uses, and reports the newest terminal run it spawned.
func (r *GlanceReconciler) reconcileDBPurge(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	return r.PeriodicJob(ctx, &s.Scope, render.DBPurgeCronJob(s.glance, s.Config), dbPurge)
}
