// Package webhook defaults and validates Barbican and BarbicanSecretStore
// objects at admission (barbican-api.md §3). The rules every service kind
// shares live in common/framework/admission and common/lib/validation; this package adds
// Barbican's own and the secret store's.
package webhook

import (
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/admit"
)

// +kubebuilder:webhook:path=/mutate-barbican-openstack-c5c3-io-v1alpha1-barbican,mutating=true,failurePolicy=fail,sideEffects=None,groups=barbican.openstack.c5c3.io,resources=barbicans,verbs=create;update,versions=v1alpha1,name=mbarbican.openstack.c5c3.io,admissionReviewVersions=v1

// Defaults are Barbican's values of the shared webhook defaults: requests
// 100m/256Mi, limits 500m/512Mi, username barbican.
var Defaults = admit.ServiceDefaults{
	Service:   barbicanv1.ServiceName,
	Resources: admit.Resources("100m", "256Mi", "500m", "512Mi"),
}

// Defaulter is the mutating webhook of Barbican.
var Defaulter = admit.Defaulter[*barbicanv1.Barbican](Apply)

// Apply fills the unset deployment, cache backend, logging and serviceUser
// fields, and the uwsgi leaves only when spec.apiServer.uwsgi is written.
// spec.dbClean is never touched: its unset fields resolve at reconcile time
// and so follow the operator's defaults across upgrades.
func Apply(b *barbicanv1.Barbican) {
	Defaults.Apply(&b.Spec.ServiceSpec, uwsgi(b))
}

// uwsgi is spec.apiServer.uwsgi, nil when either block is absent.
func uwsgi(b *barbicanv1.Barbican) *serviceapi.UWSGISpec {
	if b.Spec.APIServer == nil {
		return nil
	}
	return b.Spec.APIServer.UWSGI
}
