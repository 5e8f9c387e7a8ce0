package controller

import (
	"context"

	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileHPA creates the HorizontalPodAutoscaler for spec.autoscaling, or deletes it.
func (r *PlacementReconciler) reconcileHPA(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	wanted := p.Spec.Autoscaling != nil
	err := apply.Toggle(ctx, s.target.Client, s.owner, wanted,
		&autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: s.childMeta()},
		func() (*autoscalingv2.HorizontalPodAutoscaler, error) {
			return workload.HorizontalPodAutoscaler(render.Identity(p), *p.Spec.Autoscaling, p.Spec.Deployment.EffectiveReplicas()), nil
		})
	if err != nil {
		return pipeline.Continue(), err
	}
	s.optional(placementv1.ConditionHPAReady, wanted, "HorizontalPodAutoscaler is in place", "spec.autoscaling is not set")
	return pipeline.Continue(), nil
}
