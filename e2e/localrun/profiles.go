package localrun

import (
	"context"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Placement runs the Placement operator's db-sync Jobs and placement-api.
var Placement = Profile{
	ManagedBy:    "placement-operator",
	CR:           placementv1.GroupVersion.WithKind("Placement"),
	APIContainer: "placement-api",
	API:          localsvc.PlacementAPI,
}

// MariaDBHosts resolves every MariaDB of a namespace, as its Service name,
// to this machine: the one local server plays all of them.
func MariaDBHosts(c client.Reader) func(context.Context, string) ([]string, error) {
	return func(ctx context.Context, ns string) ([]string, error) {
		var list mariadbv1alpha1.MariaDBList
		if err := c.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return nil, err
		}
		var hosts []string
		for _, m := range list.Items {
			hosts = append(hosts, m.Name+"."+ns+".svc", m.Name+"."+ns+".svc.cluster.local")
		}
		return hosts, nil
	}
}
