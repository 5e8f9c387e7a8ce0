package localrun

import (
	"context"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Placement runs the Placement operator's db-sync Jobs and placement-api
// with the entry point a Placement image ships (root is the repository's
// root).
func Placement(root string) Profile {
	return Profile{
		ManagedBy:    "placement-operator",
		CR:           placementv1.GroupVersion.WithKind("Placement"),
		APIContainer: "placement-api",
		Map:          localsvc.PlacementAPI.MapWith,
		Provide:      localsvc.PlacementImageTrees(root),
	}
}

// Glance runs the Glance operator's db-sync Jobs and glance-api in either
// launch mode, with the trees a Glance image ships (root is the
// repository's root).
func Glance(root string) Profile {
	return Profile{
		ManagedBy:    "glance-operator",
		CR:           glancev1.GroupVersion.WithKind("Glance"),
		APIContainer: "glance-api",
		Map:          localsvc.MapGlanceAPI,
		Provide:      localsvc.GlanceImageTrees(root),
		ReadyPath:    "healthcheck",
		// The image cache's pruner and cleaner, on the API's cache volume.
		Sidecars: []string{"cache-maintenance"},
	}
}

// Barbican runs the Barbican operator's db-sync Jobs and barbican-api in
// root, a root filesystem holding barbican 23 (hack/rootfs.sh sid): the
// operator's argv names barbican.wsgi.api, which bookworm's barbican has not.
func Barbican(root string) Profile {
	return Profile{
		ManagedBy:    "barbican-operator",
		CR:           barbicanv1.GroupVersion.WithKind("Barbican"),
		APIContainer: "barbican-api",
		Map:          localsvc.BarbicanAPIUWSGI.MapWith,
		ReadyPath:    "healthcheck",
		Root:         root,
	}
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
