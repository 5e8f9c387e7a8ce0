package service

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	"github.com/c5c3/openstack-operators/common/lib/dsn"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Secrets gates on the secret store, then on the DB and service-user
// credential Secrets, and digests the service-user password.
func (r *Reconciler) Secrets(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	spec := s.Spec()
	ns := s.CR.GetNamespace()
	ready, msg, err := secrets.StoreReady(ctx, s.Target.Cached(), ns, spec.SecretStoreRef)
	if err != nil {
		return s.readFailed(err)
	}
	if !ready {
		s.SetFalse(conditions.TypeSecretsReady, conditions.ReasonSecretStoreNotReady, msg)
		return pipeline.RequeueAfter(RequeueSecrets), nil
	}
	db, msg, err := secrets.Usable(ctx, s.Target.Client, ns, spec.Database.SecretRef.Name, "username", "password")
	if err != nil {
		return s.readFailed(err)
	}
	if db == nil {
		s.SetFalse(conditions.TypeSecretsReady, conditions.ReasonWaitingForDBCredentials, msg)
		return pipeline.RequeueAfter(RequeueSecrets), nil
	}
	key := spec.ServiceUser.PasswordKey()
	user, msg, err := secrets.Usable(ctx, s.Target.Client, ns, spec.ServiceUser.SecretRef.Name, key)
	if err != nil {
		return s.readFailed(err)
	}
	if user == nil {
		s.SetFalse(conditions.TypeSecretsReady, conditions.ReasonWaitingForServiceUserCredentials, msg)
		return pipeline.RequeueAfter(RequeueSecrets), nil
	}
	s.DBUsername, s.DBPassword = string(db.Data["username"]), string(db.Data["password"])
	s.AuthtokenHash = secrets.Digest(user.Data[key])
	s.SetTrue(conditions.TypeSecretsReady, conditions.ReasonSecretsAvailable, "credential Secrets are available")
	return pipeline.Continue(), nil
}

// readFailed records a read error on a target cluster (e.g. a namespace its
// cache does not cover) on SecretsReady and returns it for backoff; on the
// management cluster the error alone is returned.
func (s *Scope) readFailed(err error) (pipeline.Outcome, error) {
	if s.Target.Remote() {
		s.SetFalse(conditions.TypeSecretsReady, conditions.ReasonTargetClusterUnavailable,
			fmt.Sprintf("reading inputs on target cluster %s: %v", s.Target.Name, err))
	}
	return pipeline.Continue(), err
}

// DBConnectionSecret writes the pymysql DSN into <cr>-db-connection and
// digests it for the rollout annotation, and its password-less target for
// the migration Jobs' rerun key.
func (r *Reconciler) DBConnectionSecret(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	spec := s.Spec()
	parts := dsn.Parts{
		User:     dsn.User(spec.Database, s.CR.GetName(), s.DBUsername),
		Password: s.DBPassword,
		Host:     dsn.Host(spec.Database, s.CR.GetNamespace()),
		Database: spec.Database.Database,
		TLS:      spec.Database.TLS,
		TLSDir:   r.Profile.DBTLSDir,
	}
	url := dsn.Build(parts)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: workload.DBConnectionSecretName(s.CR.GetName()), Namespace: s.CR.GetNamespace(), Labels: s.ID.Labels()},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{workload.DSNSecretKey: []byte(url)},
	}
	if _, err := apply.Ensure(ctx, s.Target.Client, s.Owner, secret, nil); err != nil {
		// The DSN Secret is a config artefact: its failure reads like the config's.
		return pipeline.Continue(), ConfigFailed(s, err)
	}
	s.DBConnectionHash = secrets.Digest([]byte(url))
	s.DBTargetHash = secrets.Digest([]byte(dsn.Target(parts)))
	return pipeline.Continue(), nil
}
