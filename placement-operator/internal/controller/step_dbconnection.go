package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/dsn"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/secrets"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileDBConnectionSecret writes the pymysql DSN into <cr>-db-connection
// and digests it for the rollout annotation, and its password-less target
// for the db-sync rerun key.
func (r *PlacementReconciler) reconcileDBConnectionSecret(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	parts := dsn.Parts{
		User:     dsn.User(p.Spec.Database, p.Name, s.dbUsername),
		Password: s.dbPassword,
		Host:     dsn.Host(p.Spec.Database, p.Namespace),
		Database: p.Spec.Database.Database,
		TLS:      p.Spec.Database.TLS,
		TLSDir:   render.DBTLSDir,
	}
	url := dsn.Build(parts)
	secret := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: render.DBConnectionSecretName(p), Namespace: p.Namespace, Labels: render.Identity(p).Labels()},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{render.DSNSecretKey: []byte(url)},
	}
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, secret, nil); err != nil {
		return pipeline.Continue(), err
	}
	s.dbConnectionHash = secrets.Digest([]byte(url))
	s.dbTargetHash = secrets.Digest([]byte(dsn.Target(parts)))
	return pipeline.Continue(), nil
}
