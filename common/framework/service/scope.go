package service

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Scope is the shared part of one pass's state, filled in step order. An
// operator's scope embeds it and adds its own fields.
type Scope struct {
	// CR is the service CR; parallel members work on a deep copy.
	CR Object
	// Target receives the children and answers reads of inputs.
	Target targetcluster.Target
	// Owner stamps and recognises the children.
	Owner apply.Owner
	// ID names the children and carries their labels.
	ID workload.Identity

	// DBUsername and DBPassword come from the DB credential Secret (Secrets step).
	DBUsername, DBPassword string
	// AuthtokenHash digests the service-user password (Secrets step).
	AuthtokenHash string
	// DBConnectionHash digests the DSN (DBConnectionSecret step).
	DBConnectionHash string
	// DBTargetHash digests the DSN without its password: the migration Jobs' rerun key.
	DBTargetHash string
	// Config names the current content-addressed config artefact (Config step).
	Config string
	// MaxUserConnections sizes the managed MariaDB User (Barbican); zero
	// leaves mariadb-operator's default.
	MaxUserConnections int32
	// EgressPorts are TCP ports the API reaches beyond database, cache and
	// Keystone (Glance's S3 endpoints, Barbican's OpenBao servers); the NetworkPolicy step allows them.
	EgressPorts []int32
}

// NewScope starts a pass over cr, whose children go to t.
func NewScope(p Profile, scheme *runtime.Scheme, cr Object, t targetcluster.Target) Scope {
	return Scope{
		CR:     cr,
		Target: t,
		Owner:  apply.Owner{Object: cr, Kind: p.Kind, Scheme: scheme, Remote: t.Remote()},
		ID:     p.Identity(cr.GetNamespace(), cr.GetName()),
	}
}

// ServiceScope gives the shared steps the shared scope of an operator's
// scope (which embeds it), through the EmbedsScope constraint.
func (s *Scope) ServiceScope() *Scope { return s }

// Rebind points the scope at cr, a deep copy of its CR, for a parallel member.
func (s *Scope) Rebind(cr Object) {
	s.CR = cr
	s.Owner.Object = cr
}

// Conditions are the CR's conditions.
func (s *Scope) Conditions() *[]metav1.Condition { return &s.CR.ServiceStatus().Conditions }

// Spec is the CR's shared spec.
func (s *Scope) Spec() *serviceapi.ServiceSpec { return s.CR.ServiceSpec() }

// Status is the CR's shared status.
func (s *Scope) Status() *serviceapi.ServiceStatus { return s.CR.ServiceStatus() }

// Gen is the CR's generation, stamped on every condition.
func (s *Scope) Gen() int64 { return s.CR.GetGeneration() }

// ChildMeta names the children that share the CR's name.
func (s *Scope) ChildMeta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: s.CR.GetName(), Namespace: s.CR.GetNamespace()}
}

// SetTrue upserts a True condition stamped with the CR's generation.
func (s *Scope) SetTrue(condType, reason, message string) {
	conditions.True(s.Conditions(), s.Gen(), condType, reason, message)
}

// SetFalse upserts a False condition stamped with the CR's generation.
func (s *Scope) SetFalse(condType, reason, message string) {
	conditions.False(s.Conditions(), s.Gen(), condType, reason, message)
}

// IsTrue reports whether the CR's condition condType is True.
func (s *Scope) IsTrue(condType string) bool {
	return meta.IsStatusConditionTrue(*s.Conditions(), condType)
}

// CRMeta lets the pipeline adopt a parallel member's write of the CR's
// metadata (pipeline.MetadataCarrier).
func (s *Scope) CRMeta() metav1.Object { return s.CR }
