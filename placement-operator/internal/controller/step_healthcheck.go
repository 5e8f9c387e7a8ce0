package controller

import (
	"context"
	"net/http"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/probe"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// reconcileHealthCheck GETs the version document at / of the in-cluster
// Service URL (never the gateway) through the TTL probe cache.
func (r *PlacementReconciler) reconcileHealthCheck(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	if p.Status.Endpoint == "" {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionPlacementAPIReady, conditions.ReasonEndpointNotReady, "status.endpoint is not set yet")
		return pipeline.RequeueAfter(requeueDeployment), nil
	}
	url, hc := r.probeTarget(s)
	already := meta.IsStatusConditionTrue(p.Status.Conditions, placementv1.ConditionPlacementAPIReady)
	res, err := r.Probe.Check(ctx, hc, types.NamespacedName{Namespace: p.Namespace, Name: p.Name}, p.UID, url, already)
	if err != nil {
		return pipeline.Continue(), err
	}
	if !res.Healthy {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionPlacementAPIReady, res.Reason, res.Message)
		return pipeline.RequeueAfter(requeueDeployment), nil
	}
	conditions.True(s.Conditions(), s.gen(), placementv1.ConditionPlacementAPIReady, res.Reason, res.Message)
	return pipeline.Continue(), nil
}

// probeTarget picks where the probe goes: a target cluster's Service through
// that cluster's services/proxy, else the in-cluster URL (or ProbeURL's mapping).
func (r *PlacementReconciler) probeTarget(s *scope) (string, *http.Client) {
	p := s.placement
	if s.target.Remote() {
		return probe.ServiceProxyURL(s.target.APIHost, p.Namespace, p.Name, placementv1.APIPort), s.target.HTTP
	}
	url := r.inClusterURL(p)
	if r.ProbeURL != nil {
		url = r.ProbeURL(p, url)
	}
	return url, r.HTTP
}
