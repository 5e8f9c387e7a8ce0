package manager

import (
	"fmt"
	"net/http"

	"k8s.io/client-go/rest"

	"github.com/c5c3/openstack-operators/common/probe"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// apiServerProxy returns an authenticated client and a URL mapper that send
// the probe through /api/v1/namespaces/<ns>/services/<name>:<port>/proxy/.
func apiServerProxy(cfg *rest.Config) (*http.Client, func(*placementv1.Placement, string) string, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("building API server proxy client: %w", err)
	}
	return hc, func(p *placementv1.Placement, _ string) string {
		return probe.ServiceProxyURL(cfg.Host, p.Namespace, p.Name, placementv1.APIPort)
	}, nil
}

// annotatedProbeURL lets a Placement's probe-URL annotation win over next
// (the in-cluster URL, or the services/proxy mapping).
func annotatedProbeURL(next func(*placementv1.Placement, string) string) func(*placementv1.Placement, string) string {
	return func(p *placementv1.Placement, inCluster string) string {
		if next != nil {
			inCluster = next(p, inCluster)
		}
		return probe.OverrideURL(p, inCluster)
	}
}
