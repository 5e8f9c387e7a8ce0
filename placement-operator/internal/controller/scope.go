package controller

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// scope is the state of one pass, filled in step order.
type scope struct {
	// placement is the CR; parallel members work on a deep copy.
	placement *placementv1.Placement
	// target receives the children and answers reads of inputs.
	target targetcluster.Target
	// owner stamps and recognises the children.
	owner apply.Owner

	// dbUsername and dbPassword come from the DB credential Secret (Secrets step).
	dbUsername, dbPassword string
	// authtokenHash digests the service-user password (Secrets step).
	authtokenHash string
	// dbConnectionHash digests the DSN (DBConnectionSecret step).
	dbConnectionHash string
	// dbTargetHash digests the DSN without its password: the db-sync rerun key.
	dbTargetHash string
	// configMap is the current content-addressed ConfigMap (Config step).
	configMap string
}

// Conditions are the CR's conditions.
func (s *scope) Conditions() *[]metav1.Condition { return &s.placement.Status.Conditions }

// Fork copies the scope with a deep copy of the CR.
func (s *scope) Fork() *scope {
	c := *s
	c.placement = s.placement.DeepCopy()
	c.owner.Object = c.placement
	return &c
}

func (s *scope) gen() int64 { return s.placement.Generation }

// childMeta names the children that share the CR's name.
func (s *scope) childMeta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: s.placement.Name, Namespace: s.placement.Namespace}
}

// optionalReasons are the True reasons of an optional child's condition.
var optionalReasons = map[string][2]string{
	placementv1.ConditionHPAReady:           {conditions.ReasonHPAReady, conditions.ReasonHPANotRequired},
	placementv1.ConditionNetworkPolicyReady: {conditions.ReasonNetworkPolicyReady, conditions.ReasonNetworkPolicyNotRequired},
}

// optional sets the always-True condition of an optional child: ready when
// wanted, NotRequired otherwise.
func (s *scope) optional(condType string, wanted bool, readyMsg, notRequiredMsg string) {
	r := optionalReasons[condType]
	if wanted {
		conditions.True(s.Conditions(), s.gen(), condType, r[0], readyMsg)
		return
	}
	conditions.True(s.Conditions(), s.gen(), condType, r[1], notRequiredMsg)
}
