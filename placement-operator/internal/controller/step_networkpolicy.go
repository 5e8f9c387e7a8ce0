package controller

import (
	"context"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileNetworkPolicy creates the fail-closed NetworkPolicy, or deletes it.
// An empty ingress list is an error: nothing is created.
func (r *PlacementReconciler) reconcileNetworkPolicy(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	if p.Spec.NetworkPolicy == nil {
		np := &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		if err := apply.Absent(ctx, s.target.Client, s.owner, np); err != nil {
			return pipeline.Continue(), err
		}
		conditions.True(s.Conditions(), s.gen(), placementv1.ConditionNetworkPolicyReady, conditions.ReasonNetworkPolicyNotRequired, "spec.networkPolicy is not set")
		return pipeline.Continue(), nil
	}
	params := workload.NetworkPolicyParams{
		ID:                render.Identity(p),
		Port:              placementv1.APIPort,
		Spec:              *p.Spec.NetworkPolicy,
		OperatorNamespace: r.OperatorNamespace,
		DatabasePort:      p.Spec.Database.EffectivePort(),
		KeystoneURL:       p.Spec.KeystoneEndpoint,
		CacheServers:      p.Spec.Cache.Servers,
	}
	if g := p.Spec.Gateway; g != nil {
		params.GatewayNamespace = g.ParentRef.Namespace
		if params.GatewayNamespace == "" {
			params.GatewayNamespace = p.Namespace
		}
	}
	np, err := workload.NetworkPolicy(params)
	if err != nil {
		return pipeline.Continue(), err
	}
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, np, nil); err != nil {
		return pipeline.Continue(), err
	}
	conditions.True(s.Conditions(), s.gen(), placementv1.ConditionNetworkPolicyReady, conditions.ReasonNetworkPolicyReady, "NetworkPolicy is in place")
	return pipeline.Continue(), nil
}
