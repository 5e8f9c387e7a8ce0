package controller

import (
	"context"
	"time"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
)

// requeueStores polls for a projection while no config Secret exists (the
// database wait's interval).
const requeueStores = 30 * time.Second

// waitingForStores is the message of the cascade a missing projection causes.
const waitingForStores = "no config Secret yet: no ready default BarbicanSecretStore has been projected"

// reconcileDatabase provisions the schema (max_user_connections sized from
// the CR's topology), gates the release and runs the single
// `barbican-manage db upgrade` Job; its success promotes installedRelease.
// Without a config Secret there is nothing to migrate with: the Deployment
// step still runs to report the same wait.
func (r *BarbicanReconciler) reconcileDatabase(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	if out, err := r.ProvisionDatabase(ctx, &s.Scope); pipeline.Stops(out, err) {
		return out, err
	}
	if s.Config == "" {
		s.SetFalse(conditions.TypeDatabaseReady, barbicanv1.ReasonWaitingForSecretStores, waitingForStores)
		return pipeline.ProceedAndRequeueAfter(requeueStores), nil
	}
	if out, err := r.GateRelease(&s.Scope); pipeline.Stops(out, err) {
		return out, err
	}
	return r.DBSync(ctx, &s.Scope, render.DBSyncJob(s.barbican, s.Config, s.DBTargetHash))
}
