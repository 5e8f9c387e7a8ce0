package manager

import (
	"fmt"
	"net/http"
	"strings"

	"k8s.io/client-go/rest"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// apiServerProxy returns an authenticated client and a URL mapper that send
// the probe through /api/v1/namespaces/<ns>/services/<name>:<port>/proxy/.
func apiServerProxy(cfg *rest.Config) (*http.Client, func(*placementv1.Placement, string) string, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("building API server proxy client: %w", err)
	}
	host := strings.TrimSuffix(cfg.Host, "/")
	return hc, func(p *placementv1.Placement, _ string) string {
		return fmt.Sprintf("%s/api/v1/namespaces/%s/services/%s:%d/proxy/", host, p.Namespace, p.Name, placementv1.APIPort)
	}, nil
}
