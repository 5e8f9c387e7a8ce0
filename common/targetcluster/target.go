// Package targetcluster resolves the cluster that receives a CR's children:
// the management cluster, or a cluster registered by a kubeconfig Secret.
package targetcluster

import (
	"net/http"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
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
	// Client reads through the cluster's cache and writes to it.
	Client client.Client
	// Reader reads uncached, for the few reads that must see the live object.
	Reader client.Reader
	// Mapper answers which kinds the cluster serves.
	Mapper meta.RESTMapper
	// APIHost and HTTP reach the cluster's API server, for the health probe
	// through services/proxy; unset for the management cluster.
	APIHost string
	HTTP    *http.Client
}

// Remote reports whether children land on a registered cluster.
func (t Target) Remote() bool { return t.Name != "" }

// OwnerLabels are the labels a remote child carries for its owner.
func OwnerLabels(kind, name, namespace string) map[string]string {
	return map[string]string{LabelOwnerKind: kind, LabelOwnerName: name, LabelOwnerNamespace: namespace}
}
