package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// reconcileConfig renders glance-api.conf and the paste pipeline into an
// immutable content-addressed ConfigMap and reports ExtraConfigHealthy. An
// invalid backend projection renders nothing: the live Deployment's config
// and backends names stay (none on a first install), and only the policy
// overrides are checked.
func (r *GlanceReconciler) reconcileConfig(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	g, p := s.glance, s.projection
	if p == nil {
		// Nothing is rendered, but the policy overrides are the user's
		// input all the same: a missing or broken ConfigMap stops the chain
		// whether or not the backends have been judged yet.
		if _, err := r.PolicyRules(ctx, &s.Scope); err != nil {
			return pipeline.Continue(), service.ConfigFailed(&s.Scope, err)
		}
		if err := r.lastGood(ctx, s); err != nil {
			return pipeline.Continue(), service.ConfigFailed(&s.Scope, err)
		}
		return pipeline.Continue(), nil
	}
	return r.Config(ctx, &s.Scope, render.ConfigBase(g), render.OwnedKeys, func(rules map[string]string) (map[string]string, error) {
		return render.ConfigData(g, p.enabled, p.defaultBackend, rules)
	})
}

// lastGood takes the config ConfigMap and backends Secret the live
// Deployment mounts.
func (r *GlanceReconciler) lastGood(ctx context.Context, s *scope) error {
	d, err := r.LiveDeployment(ctx, &s.Scope)
	if d == nil || err != nil {
		return err
	}
	for _, v := range d.Spec.Template.Spec.Volumes {
		switch {
		case v.Name == workload.ConfigVolumeName && v.ConfigMap != nil:
			s.Config = v.ConfigMap.Name
		case v.Name == render.BackendsVolume && v.Secret != nil:
			s.backendsSecret = v.Secret.SecretName
		}
	}
	return nil
}
