package controller

import (
	"context"
	"fmt"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileHTTPRoute runs the spec.gateway lifecycle. Placement renders no
// request timeout: it answers short JSON requests.
func (r *PlacementReconciler) reconcileHTTPRoute(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	served, err := r.httpRouteServed(s)
	if err != nil {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionHTTPRouteReady, conditions.ReasonCapabilityProbeFailed, err.Error())
		return pipeline.RequeueAfter(requeueDeployment), nil
	}
	route := &gatewayv1.HTTPRoute{ObjectMeta: s.childMeta()}
	if p.Spec.Gateway == nil {
		if served {
			if err := apply.Absent(ctx, s.target.Client, s.owner, route); err != nil {
				return pipeline.Continue(), err
			}
		}
		conditions.True(s.Conditions(), s.gen(), placementv1.ConditionHTTPRouteReady, conditions.ReasonHTTPRouteNotRequired, "spec.gateway is not set")
		return pipeline.Continue(), nil
	}
	if !served {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionHTTPRouteReady, conditions.ReasonGatewayAPINotInstalled,
			"spec.gateway is set but the cluster does not serve gateway.networking.k8s.io/v1 HTTPRoute")
		return pipeline.Continue(), nil
	}
	desired := workload.HTTPRoute(render.Identity(p), *p.Spec.Gateway, placementv1.APIPort, "")
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, desired, nil); err != nil {
		return pipeline.Continue(), err
	}
	if !workload.HTTPRouteAccepted(desired) {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionHTTPRouteReady, conditions.ReasonHTTPRouteNotAccepted,
			fmt.Sprintf("HTTPRoute %s is not Accepted by Gateway %s", p.Name, p.Spec.Gateway.ParentRef.Name))
		return pipeline.RequeueAfter(requeueDeployment), nil
	}
	conditions.True(s.Conditions(), s.gen(), placementv1.ConditionHTTPRouteReady, conditions.ReasonHTTPRouteAccepted, "HTTPRoute is Accepted")
	return pipeline.Continue(), nil
}

// httpRouteServed answers from the setup probe locally and asks a target
// cluster's RESTMapper on every pass.
func (r *PlacementReconciler) httpRouteServed(s *scope) (bool, error) {
	if !s.target.Remote() {
		return r.GatewayAPI, nil
	}
	return targetcluster.KindServed(s.target.Mapper, workload.HTTPRouteGVK)
}
