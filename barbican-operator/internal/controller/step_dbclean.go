package controller

import (
	"context"
	"fmt"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/lib/release"
)

// dbClean names the clean CronJob's condition, reasons and series.
var dbClean = service.Periodic{
	Condition: barbicanv1.ConditionDBCleanReady,
	Scheduled: barbicanv1.ReasonDBCleanScheduled,
	Suspended: barbicanv1.ReasonDBCleanSuspended,
	Failed:    barbicanv1.ReasonDBCleanJobFailed,
	Kind:      metrics.JobDBClean,
	Suffix:    "db-clean",
	Deferred:  "DBCleanMetricEmissionDeferred",
}

// reconcileDBClean projects the {name}-db-clean CronJob against the rendered
// config and reports the newest terminal run it spawned. It runs ahead of
// Database so that the CronJob is suspended for as long as the schema is not
// at spec.openStackRelease (a fresh install included): the bulk DELETEs of a
// clean contend with a migration's DDL locks.
func (r *BarbicanReconciler) reconcileDBClean(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	b := s.barbican
	if s.Config == "" {
		s.SetFalse(barbicanv1.ConditionDBCleanReady, barbicanv1.ReasonWaitingForSecretStores,
			"no config Secret to mount yet: the store projection has produced none")
		return pipeline.Continue(), nil
	}
	migrating := b.Status.InstalledRelease != b.Spec.OpenStackRelease
	out, err := r.PeriodicJob(ctx, &s.Scope, render.DBCleanCronJob(b, s.Config, b.Spec.DBClean.Suspended() || migrating), dbClean)
	if err != nil || b.Spec.DBClean.Suspended() || !migrating {
		return out, err
	}
	// The gate's verdict on this spec, as the Database step after this one
	// will give it (its condition still holds the last pass's).
	spec := &b.Spec.ServiceSpec
	if ref := release.Refused(spec.Image.Tag, spec.OpenStackRelease, b.Status.InstalledRelease, b.Status.InstalledImage, spec.Image.Reference()); ref != nil {
		s.SetFalse(barbicanv1.ConditionDBCleanReady, barbicanv1.ReasonDBCleanBlocked, fmt.Sprintf(
			"suspended for a schema migration to %s that the release gate refused (%s): no migration runs and the backlog grows until spec.openStackRelease and spec.image are corrected",
			b.Spec.OpenStackRelease, ref.Reason))
		return out, nil
	}
	s.SetTrue(barbicanv1.ConditionDBCleanReady, barbicanv1.ReasonDBCleanSuspended, fmt.Sprintf(
		"suspended while the schema converges to %s (installed: %s)", b.Spec.OpenStackRelease, orNone(b.Status.InstalledRelease)))
	return out, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
