package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileConfig renders placement.conf (and policy.yaml, logging.conf)
// into an immutable content-addressed ConfigMap, prunes older generations
// and reports ExtraConfigHealthy.
func (r *PlacementReconciler) reconcileConfig(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	return r.Config(ctx, &s.Scope, render.ConfigBase(s.placement), render.OwnedKeys, func(rules map[string]string) (map[string]string, error) {
		return render.ConfigData(s.placement, rules)
	})
}
