package service

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/perf/probe"
)

// HealthCheck GETs the API's probe path on the in-cluster Service URL (never
// the gateway) through the TTL probe cache and sets the API condition.
func (r *Reconciler) HealthCheck(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	apiCond := r.Profile.APICondition
	if s.Status().Endpoint == "" {
		s.SetFalse(apiCond, conditions.ReasonEndpointNotReady, "status.endpoint is not set yet")
		return pipeline.RequeueAfter(RequeueProbe), nil
	}
	url, hc := r.probeTarget(s)
	key := types.NamespacedName{Namespace: s.CR.GetNamespace(), Name: s.CR.GetName()}
	res, err := r.Probe.Check(ctx, hc, key, s.CR.GetUID(), url, s.IsTrue(apiCond))
	if err != nil {
		return pipeline.Continue(), err
	}
	if res.Sent {
		r.Metrics.ObserveProbe(res.Healthy, res.Reason)
	}
	if !res.Healthy {
		s.SetFalse(apiCond, res.Reason, res.Message)
		return pipeline.RequeueAfter(RequeueProbe), nil
	}
	s.SetTrue(apiCond, res.Reason, res.Message)
	return pipeline.Continue(), nil
}

// probeTarget picks where the probe goes: a target cluster's Service through
// that cluster's services/proxy, else the in-cluster URL (or ProbeURL's
// mapping of it); the profile's probe path follows either.
func (r *Reconciler) probeTarget(s *Scope) (string, *http.Client) {
	path := r.Profile.ProbePath
	if s.Target.Remote() {
		return probe.ServiceProxyURL(s.Target.APIHost, s.CR.GetNamespace(), s.CR.GetName(), r.Profile.APIPort) + trimSlash(path), s.Target.HTTP
	}
	url := r.InClusterURL(s.CR)
	if r.ProbeURL != nil {
		url = r.ProbeURL(s.CR, url)
	}
	return url + trimSlash(path), r.HTTP
}

// InClusterURL is the API Service's URL under the cluster's DNS domain,
// ending in a slash.
func (r *Reconciler) InClusterURL(cr Object) string {
	domain := r.ClusterDomain
	if domain == "" {
		domain = DefaultClusterDomain
	}
	return fmt.Sprintf("http://%s.%s.svc.%s:%d/", cr.GetName(), cr.GetNamespace(), domain, r.Profile.APIPort)
}

// Endpoint is the gateway URL when exposed, else the in-cluster Service URL;
// it ends in a slash unless the profile asks for a bare endpoint.
func (r *Reconciler) Endpoint(cr Object) string {
	url := r.InClusterURL(cr)
	if g := cr.ServiceSpec().Gateway; g != nil {
		url = "https://" + g.Hostname + "/"
	}
	if r.Profile.BareEndpoint {
		return strings.TrimSuffix(url, "/")
	}
	return url
}

func trimSlash(path string) string {
	if path != "" && path[0] == '/' {
		return path[1:]
	}
	return path
}
