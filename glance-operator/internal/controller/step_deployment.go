package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/upgrade"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// reconcileDeployment ensures the API Deployment (either launch mode),
// Service and PDB and stamps status.endpoint; mid-upgrade it moves the
// phase to Contracting once the rollout has fully converged.
func (r *GlanceReconciler) reconcileDeployment(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	g := s.glance
	if s.Config == "" || s.backendsSecret == "" {
		s.SetFalse(conditions.TypeDeploymentReady, glancev1.ReasonWaitingForBackends, waitingForDefault)
		return pipeline.RequeueAfter(requeueBackends), nil
	}
	desired := render.Deployment(g, s.Config, s.backendsSecret, render.Digests{Authtoken: s.AuthtokenHash, DBConnection: s.DBConnectionHash})
	live, out, err := r.ApplyDeployment(ctx, &s.Scope, desired)
	if err != nil {
		return out, err
	}
	if flip, done := upgrade.FinishRollout(&r.Reconciler, &s.Scope, &g.Status.UpgradePhase, live); done {
		return flip, nil
	}
	return out, nil
}
