// Package targetcluster resolves the cluster that receives a CR's children:
// the management cluster, or a cluster registered by a kubeconfig Secret.
package targetcluster

import (
	"net/http"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"

	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// Labels that mark a remote child with its owner, since owner references
// cannot cross clusters.
const (
	LabelOwnerKind      = "openstack.c5c3.io/owner-kind"
	LabelOwnerName      = "openstack.c5c3.io/owner-name"
	LabelOwnerNamespace = "openstack.c5c3.io/owner-namespace"
	// RemoteChildrenFinalizer guards the deletion of remote children.
	RemoteChildrenFinalizer = "openstack.c5c3.io/remote-children"
)

// Target is the cluster a pass writes children to and reads inputs from.
type Target struct {
	// Name of the registered cluster; empty for the management cluster.
	Name string
	// Client reads through the cluster's cache and writes to it; its typed
	// Secret reads come from a secrets.Memo (New).
	Client client.Client
	// Reader reads uncached, for the few reads that must see the live object.
	Reader client.Reader
	// Cache reads the cluster's informers directly, in any form they hold
	// (unstructured secret stores, Secret metadata); nil falls back to Reader.
	Cache client.Reader
	// Mapper answers which kinds the cluster serves.
	Mapper meta.RESTMapper
	// APIHost and HTTP reach the cluster's API server, for the health probe
	// through services/proxy; unset for the management cluster.
	APIHost string
	HTTP    *http.Client
}

// New is the target of a cluster: Client is the cluster's client behind a
// Secret memo validated against its Secret informer's metadata, so a
// pass over unchanged Secrets reads none from the API server.
//
// A cache that splits the Secret informer by namespace (the management
// cluster's, common/perf/secretcache) feeds the memo the referenced Secrets it
// lists and watches, so that even their first read needs no request.
func New(name string, cl cluster.Cluster) Target {
	memo := &secrets.Memo{Client: cl.GetClient(), Meta: cl.GetCache()}
	if c, ok := cl.GetCache().(interface{ Feed(secrets.Sink) }); ok {
		c.Feed(memo)
	}
	return Target{
		Name:   name,
		Client: memo,
		Reader: cl.GetAPIReader(),
		Cache:  cl.GetCache(),
		Mapper: cl.GetRESTMapper(),
	}
}

// Cached is the reader of informer-backed kinds: Cache, else Reader.
func (t Target) Cached() client.Reader {
	if t.Cache != nil {
		return t.Cache
	}
	return t.Reader
}

// Remote reports whether children land on a registered cluster.
func (t Target) Remote() bool { return t.Name != "" }

// OwnerLabels are the labels a remote child carries for its owner.
func OwnerLabels(kind, name, namespace string) map[string]string {
	return map[string]string{LabelOwnerKind: kind, LabelOwnerName: name, LabelOwnerNamespace: namespace}
}
