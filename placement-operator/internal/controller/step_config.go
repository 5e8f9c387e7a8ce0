package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/configartifact"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/service"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileConfig renders the config files into an immutable content-addressed
// ConfigMap, prunes older generations and reports ExtraConfigHealthy.
func (r *PlacementReconciler) reconcileConfig(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	if err := r.config(ctx, s); err != nil {
		return pipeline.Continue(), service.ConfigFailed(&s.Scope, err)
	}
	r.ReportExtraConfig(&s.Scope, render.OwnedKeys)
	return pipeline.Continue(), nil
}

func (r *PlacementReconciler) config(ctx context.Context, s *scope) error {
	p := s.placement
	rules, err := r.PolicyRules(ctx, &s.Scope)
	if err != nil {
		return err
	}
	data, err := render.ConfigData(p, rules)
	if err != nil {
		return err
	}
	base := render.ConfigBase(p)
	cm := configartifact.BuildConfigMap(p.Namespace, base, s.ID.Labels(), data)
	if err := configartifact.EnsureConfigMap(ctx, s.Target.Client, s.Target.Reader, s.Owner, cm); err != nil {
		return err
	}
	s.Config = cm.Name
	return configartifact.PruneConfigMaps(ctx, s.Target.Client, s.Owner, p.Namespace, base, cm.Name)
}
