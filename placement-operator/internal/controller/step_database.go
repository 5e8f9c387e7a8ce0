package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileDatabase provisions the schema, gates the release, runs the
// db-sync Job and promotes installedRelease on its success.
func (r *PlacementReconciler) reconcileDatabase(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	if out, err := r.ProvisionDatabase(ctx, &s.Scope); pipeline.Stops(out, err) {
		return out, err
	}
	if out, err := r.GateRelease(&s.Scope); pipeline.Stops(out, err) {
		return out, err
	}
	return r.DBSync(ctx, &s.Scope, render.DBSyncJob(s.placement, s.Config, s.DBTargetHash))
}
