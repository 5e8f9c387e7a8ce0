package controller

import (
	"github.com/c5c3/openstack-operators/common/framework/service"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// scope is the state of one pass: the shared part, filled by the shared
// steps, and what the Glance steps add.
type scope struct {
	service.Scope
	// glance is the CR; parallel members work on a deep copy.
	glance *glancev1.Glance
	// projection is the valid backend projection of this pass (Backends
	// step); nil when it is invalid, and Config then keeps the last good one.
	projection *projection
	// backendsSecret names the backends Secret the Deployment mounts: this
	// pass's (Backends step) or the live Deployment's (Config step, last good).
	backendsSecret string
	// unchecked are the attached backends their controller has not checked
	// against this Glance yet (Backends step): the first db sync waits for
	// them, so that it runs once, with the config that names them.
	unchecked []string
}

// projection is what the Backends step rendered.
type projection struct {
	// enabled are the rendered store names, sorted.
	enabled []string
	// defaultBackend is the one credential-ready default.
	defaultBackend string
}

// Fork copies the scope with a deep copy of the CR.
func (s *scope) Fork() *scope {
	c := *s
	c.glance = s.glance.DeepCopy()
	c.Rebind(c.glance)
	return &c
}

func newScope(s service.Scope, cr *glancev1.Glance) *scope { return &scope{Scope: s, glance: cr} }
