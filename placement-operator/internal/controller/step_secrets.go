package controller

import (
	"context"
	"fmt"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/secrets"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// reconcileSecrets gates on the secret store, then on the DB and service-user
// credential Secrets, and digests the service-user password.
func (r *PlacementReconciler) reconcileSecrets(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	conds := s.Conditions()
	ready, msg, err := secrets.StoreReady(ctx, s.target.Reader, p.Namespace, p.Spec.SecretStoreRef)
	if err != nil {
		return s.readFailed(err)
	}
	if !ready {
		conditions.False(conds, s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonSecretStoreNotReady, msg)
		return pipeline.RequeueAfter(requeueSecrets), nil
	}
	db, msg, err := secrets.Usable(ctx, s.target.Reader, p.Namespace, p.Spec.Database.SecretRef.Name, "username", "password")
	if err != nil {
		return s.readFailed(err)
	}
	if db == nil {
		conditions.False(conds, s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonWaitingForDBCredentials, msg)
		return pipeline.RequeueAfter(requeueSecrets), nil
	}
	key := p.Spec.ServiceUser.PasswordKey()
	user, msg, err := secrets.Usable(ctx, s.target.Reader, p.Namespace, p.Spec.ServiceUser.SecretRef.Name, key)
	if err != nil {
		return s.readFailed(err)
	}
	if user == nil {
		conditions.False(conds, s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonWaitingForServiceUserCredentials, msg)
		return pipeline.RequeueAfter(requeueSecrets), nil
	}
	s.dbUsername, s.dbPassword = string(db.Data["username"]), string(db.Data["password"])
	s.authtokenHash = secrets.Digest(user.Data[key])
	conditions.True(conds, s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonSecretsAvailable, "credential Secrets are available")
	return pipeline.Continue(), nil
}

// readFailed records a read error on a target cluster (e.g. a namespace its
// cache does not cover) on SecretsReady and returns it for backoff; on the
// management cluster the error alone is returned.
func (s *scope) readFailed(err error) (pipeline.Outcome, error) {
	if s.target.Remote() {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonTargetClusterUnavailable,
			fmt.Sprintf("reading inputs on target cluster %s: %v", s.target.Name, err))
	}
	return pipeline.Continue(), err
}
