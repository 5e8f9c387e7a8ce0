package service

import (
	"context"
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	networkingv1 "k8s.io/api/networking/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// HPA creates the HorizontalPodAutoscaler for spec.autoscaling, or deletes it.
func (r *Reconciler) HPA(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	spec := s.Spec()
	wanted := spec.Autoscaling != nil
	err := apply.Toggle(ctx, s.Target.Client, s.Owner, wanted,
		&autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: s.ChildMeta()},
		func() (*autoscalingv2.HorizontalPodAutoscaler, error) {
			return workload.HorizontalPodAutoscaler(s.ID, *spec.Autoscaling, spec.Deployment.EffectiveReplicas()), nil
		})
	if err != nil {
		return pipeline.Continue(), err
	}
	if wanted {
		s.SetTrue(conditions.TypeHPAReady, conditions.ReasonHPAReady, "HorizontalPodAutoscaler is in place")
	} else {
		s.SetTrue(conditions.TypeHPAReady, conditions.ReasonHPANotRequired, "spec.autoscaling is not set")
	}
	return pipeline.Continue(), nil
}

// NetworkPolicy creates the fail-closed NetworkPolicy, or deletes it. An
// empty ingress list is an error: nothing is created.
func (r *Reconciler) NetworkPolicy(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	wanted := s.Spec().NetworkPolicy != nil
	err := apply.Toggle(ctx, s.Target.Client, s.Owner, wanted,
		&networkingv1.NetworkPolicy{ObjectMeta: s.ChildMeta()},
		func() (*networkingv1.NetworkPolicy, error) { return workload.NetworkPolicy(r.networkPolicyParams(s)) })
	if err != nil {
		return pipeline.Continue(), err
	}
	if wanted {
		s.SetTrue(conditions.TypeNetworkPolicyReady, conditions.ReasonNetworkPolicyReady, "NetworkPolicy is in place")
	} else {
		s.SetTrue(conditions.TypeNetworkPolicyReady, conditions.ReasonNetworkPolicyNotRequired, "spec.networkPolicy is not set")
	}
	return pipeline.Continue(), nil
}

// networkPolicyParams admits the operator's namespace only on the management
// cluster: on a target cluster a namespace of that name is someone else's.
func (r *Reconciler) networkPolicyParams(s *Scope) workload.NetworkPolicyParams {
	spec := s.Spec()
	params := workload.NetworkPolicyParams{
		ID:               s.ID,
		Port:             r.Profile.APIPort,
		Spec:             *spec.NetworkPolicy,
		DatabasePort:     spec.Database.EffectivePort(),
		KeystoneURL:      spec.KeystoneEndpoint,
		CacheServers:     spec.Cache.Servers,
		ExtraEgressPorts: s.EgressPorts,
	}
	if !s.Target.Remote() {
		params.OperatorNamespace = r.OperatorNamespace
	}
	if g := spec.Gateway; g != nil {
		params.GatewayNamespace = g.ParentRef.Namespace
		if params.GatewayNamespace == "" {
			params.GatewayNamespace = s.CR.GetNamespace()
		}
	}
	return params
}

// HTTPRoute runs the spec.gateway lifecycle with the profile's request timeout.
func (r *Reconciler) HTTPRoute(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	spec := s.Spec()
	served, err := r.httpRouteServed(s)
	if err != nil {
		s.SetFalse(conditions.TypeHTTPRouteReady, conditions.ReasonCapabilityProbeFailed, err.Error())
		return pipeline.RequeueAfter(RequeueRouteAcceptance), nil
	}
	route := &gatewayv1.HTTPRoute{ObjectMeta: s.ChildMeta()}
	if spec.Gateway == nil {
		if served {
			if err := apply.Absent(ctx, s.Target.Client, s.Owner, route); err != nil {
				return pipeline.Continue(), err
			}
		}
		s.SetTrue(conditions.TypeHTTPRouteReady, conditions.ReasonHTTPRouteNotRequired, "spec.gateway is not set")
		return pipeline.Continue(), nil
	}
	if !served {
		s.SetFalse(conditions.TypeHTTPRouteReady, conditions.ReasonGatewayAPINotInstalled,
			"spec.gateway is set but the cluster does not serve gateway.networking.k8s.io/v1 HTTPRoute")
		return pipeline.Continue(), nil
	}
	live := workload.HTTPRoute(s.ID, *spec.Gateway, r.Profile.APIPort, r.Profile.RouteTimeout)
	// Ensure leaves the route as the cluster has it, status included.
	if _, err := apply.Ensure(ctx, s.Target.Client, s.Owner, live, nil); err != nil {
		return pipeline.Continue(), err
	}
	if !workload.HTTPRouteAccepted(live) {
		s.SetFalse(conditions.TypeHTTPRouteReady, conditions.ReasonHTTPRouteNotAccepted,
			fmt.Sprintf("HTTPRoute %s is not Accepted by Gateway %s", s.CR.GetName(), spec.Gateway.ParentRef.Name))
		return pipeline.RequeueAfter(RequeueRouteAcceptance), nil
	}
	s.SetTrue(conditions.TypeHTTPRouteReady, conditions.ReasonHTTPRouteAccepted, "HTTPRoute is Accepted")
	return pipeline.Continue(), nil
}

// httpRouteServed answers from the setup probe locally and asks a target
// cluster's RESTMapper on every pass.
func (r *Reconciler) httpRouteServed(s *Scope) (bool, error) {
	if !s.Target.Remote() {
		return r.GatewayAPI, nil
	}
	return targetcluster.KindServed(s.Target.Mapper, workload.HTTPRouteGVK)
}
