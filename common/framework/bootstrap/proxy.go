package bootstrap

import (
	"fmt"
	"net/http"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/perf/probe"
)

// apiServerProxy returns an authenticated client and a URL mapper that send
// the probe through /api/v1/namespaces/<ns>/services/<name>:<port>/proxy/.
func apiServerProxy(cfg *rest.Config, port int32) (*http.Client, func(client.Object, string) string, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("building API server proxy client: %w", err)
	}
	return hc, func(cr client.Object, _ string) string {
		return probe.ServiceProxyURL(cfg.Host, cr.GetNamespace(), cr.GetName(), port)
	}, nil
}

// annotatedProbeURL lets a CR's probe-URL annotation win over next (the
// in-cluster URL, or the services/proxy mapping).
func annotatedProbeURL(next func(client.Object, string) string) func(client.Object, string) string {
	return func(cr client.Object, inCluster string) string {
		if next != nil {
			inCluster = next(cr, inCluster)
		}
		return probe.OverrideURL(cr, inCluster)
	}
}
