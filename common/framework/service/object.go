// Package service is what the service operators' reconcilers share: the
// interface over a service CR's spec and status, the per-pass scope, the
// reconcile entry point and the steps that differ between operators only in
// names (secrets gate, DSN Secret, Deployment, HTTPRoute, health probe, HPA,
// NetworkPolicy), plus the database and config helpers their own steps use.
package service

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/pass"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Object is a service CR: it embeds serviceapi.ServiceSpec and serviceapi.ServiceStatus.
type Object interface {
	pass.Object
	ServiceSpec() *serviceapi.ServiceSpec
}

// Profile is what tells one service operator from another to the shared code.
type Profile struct {
	// Kind of the CR ("Placement"); also the owner-kind label of remote children.
	Kind string
	// Service is app.kubernetes.io/name of the children ("placement").
	Service string
	// ManagedBy is app.kubernetes.io/managed-by of the children ("placement-operator").
	ManagedBy string
	// Finalizer is the service finalizer (<group>/finalizer).
	Finalizer string
	// APIPort is the API container and Service port.
	APIPort int32
	// ProbePath is the path the health probe GETs.
	ProbePath string
	// APICondition is the condition the health probe sets ("PlacementAPIReady").
	APICondition string
	// DBTLSDir is where the database TLS files are mounted; the DSN names them.
	DBTLSDir string
	// RouteTimeout is the HTTPRoute's request timeout, "" for none.
	RouteTimeout string
	// ConfigSecret makes the config artefact a Secret instead of a
	// ConfigMap: the rendered file carries a credential (Barbican's
	// approle_role_id).
	ConfigSecret bool
	// BareEndpoint drops the trailing slash from status.endpoint: Barbican's
	// endpoint equals [DEFAULT] host_href, which has none.
	BareEndpoint bool
	// Owned are the labelled kinds the operator writes (operator.WorkloadKinds):
	// its controller owns them, and deletion clears them from a target cluster.
	Owned []client.Object
}

// Identity names the children of the CR called name in namespace.
func (p Profile) Identity(namespace, name string) workload.Identity {
	return workload.Identity{Service: p.Service, Instance: name, Namespace: namespace, ManagedBy: p.ManagedBy}
}
