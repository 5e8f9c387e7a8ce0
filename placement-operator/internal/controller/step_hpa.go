package controller

import (
	"context"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileHPA creates the HorizontalPodAutoscaler for spec.autoscaling, or deletes it.
func (r *PlacementReconciler) reconcileHPA(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	if p.Spec.Autoscaling == nil {
		hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		if err := apply.Absent(ctx, s.target.Client, s.owner, hpa); err != nil {
			return pipeline.Continue(), err
		}
		conditions.True(s.Conditions(), s.gen(), placementv1.ConditionHPAReady, conditions.ReasonHPANotRequired, "spec.autoscaling is not set")
		return pipeline.Continue(), nil
	}
	hpa := workload.HorizontalPodAutoscaler(render.Identity(p), *p.Spec.Autoscaling, p.Spec.Deployment.EffectiveReplicas())
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, hpa, nil); err != nil {
		return pipeline.Continue(), err
	}
	conditions.True(s.Conditions(), s.gen(), placementv1.ConditionHPAReady, conditions.ReasonHPAReady, "HorizontalPodAutoscaler is in place")
	return pipeline.Continue(), nil
}
