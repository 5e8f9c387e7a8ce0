package controller

import (
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/service"
)

// scope is the state of one pass: the shared part, filled by the shared
// steps, and what the Barbican steps add.
type scope struct {
	service.Scope
	// barbican is the CR; parallel members work on a deep copy.
	barbican *barbicanv1.Barbican
	// projection is the valid store projection of this pass (SecretStores
	// step); nil when it is invalid, and Config then keeps the last good one.
	projection *projection
	// store is what the API pods take from the default store: this pass's
	// (SecretStores) or the live Deployment's (Config, last good).
	store render.StoreMount
	// storeHash digests the default store's secret ID: this pass's or the
	// live pod template's.
	storeHash string
	// attached are the non-deleting stores naming the CR (SecretStores).
	attached []barbicanv1.BarbicanSecretStore
}

// projection is what the SecretStores step rendered from.
type projection struct {
	// stores are the credential-ready stores, sorted by name.
	stores []render.Store
}

// Fork copies the scope with a deep copy of the CR.
func (s *scope) Fork() *scope {
	c := *s
	c.barbican = s.barbican.DeepCopy()
	c.Rebind(c.barbican)
	return &c
}

func newScope(s service.Scope, cr *barbicanv1.Barbican) *scope {
	s.MaxUserConnections = render.MaxUserConnections(cr)
	return &scope{Scope: s, barbican: cr}
}
