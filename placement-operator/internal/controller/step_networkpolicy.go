package controller

import (
	"context"

	networkingv1 "k8s.io/api/networking/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileNetworkPolicy creates the fail-closed NetworkPolicy, or deletes it.
// An empty ingress list is an error: nothing is created.
func (r *PlacementReconciler) reconcileNetworkPolicy(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	wanted := p.Spec.NetworkPolicy != nil
	err := apply.Toggle(ctx, s.target.Client, s.owner, wanted,
		&networkingv1.NetworkPolicy{ObjectMeta: s.childMeta()},
		func() (*networkingv1.NetworkPolicy, error) {
			return workload.NetworkPolicy(r.networkPolicyParams(p, s.target.Remote()))
		})
	if err != nil {
		return pipeline.Continue(), err
	}
	s.optional(placementv1.ConditionNetworkPolicyReady, wanted, "NetworkPolicy is in place", "spec.networkPolicy is not set")
	return pipeline.Continue(), nil
}

// networkPolicyParams admits the operator's namespace only on the management
// cluster: on a target cluster a namespace of that name is someone else's.
func (r *PlacementReconciler) networkPolicyParams(p *placementv1.Placement, remote bool) workload.NetworkPolicyParams {
	params := workload.NetworkPolicyParams{
		ID:                render.Identity(p),
		Port:              placementv1.APIPort,
		Spec:              *p.Spec.NetworkPolicy,
		OperatorNamespace: r.operatorNamespace(remote),
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
	return params
}

func (r *PlacementReconciler) operatorNamespace(remote bool) string {
	if remote {
		return ""
	}
	return r.OperatorNamespace
}
