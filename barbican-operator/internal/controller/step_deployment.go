package controller

import (
	"context"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
)

// reconcileDeployment ensures the API Deployment, Service and PDB and
// stamps status.endpoint. It creates nothing before a projection produced a
// config Secret: barbican exits at start without a store. On an invalid
// projection it renders the last good config and store mount, so the pods
// roll only for their other inputs.
func (r *BarbicanReconciler) reconcileDeployment(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	if s.Config == "" || s.store.CredentialsSecret == "" {
		s.SetFalse(conditions.TypeDeploymentReady, barbicanv1.ReasonWaitingForSecretStores, waitingForStores)
		return pipeline.RequeueAfter(requeueStores), nil
	}
	desired := render.Deployment(s.barbican, s.Config, s.store, render.Digests{
		Authtoken: s.AuthtokenHash, DBConnection: s.DBConnectionHash, StoreCredentials: s.storeHash,
	})
	_, out, err := r.ApplyDeployment(ctx, &s.Scope, desired)
	return out, err
}
