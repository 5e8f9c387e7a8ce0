package controller

import (
	"github.com/c5c3/openstack-operators/common/framework/service"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// scope is the state of one pass: the shared part, filled by the shared
// steps, and the Placement it runs over.
type scope struct {
	service.Scope
	// placement is the CR; parallel members work on a deep copy.
	placement *placementv1.Placement
}

// Fork copies the scope with a deep copy of the CR.
func (s *scope) Fork() *scope {
	c := *s
	c.placement = s.placement.DeepCopy()
	c.Rebind(c.placement)
	return &c
}

func newScope(s service.Scope, cr *placementv1.Placement) *scope {
	return &scope{Scope: s, placement: cr}
}
