package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileDeployment ensures the API Deployment, Service and PDB, narrows the
// Service selector once the rollout converged and stamps status.endpoint.
func (r *PlacementReconciler) reconcileDeployment(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	desired := render.Deployment(s.placement, s.Config, render.Digests{Authtoken: s.AuthtokenHash, DBConnection: s.DBConnectionHash})
	_, out, err := r.ApplyDeployment(ctx, &s.Scope, desired)
	return out, err
}
