// Package webhook defaults and validates Placement objects at admission.
package webhook

import (
	"context"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/admit"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// +kubebuilder:webhook:path=/mutate-placement-openstack-c5c3-io-v1alpha1-placement,mutating=true,failurePolicy=fail,sideEffects=None,groups=placement.openstack.c5c3.io,resources=placements,verbs=create;update,versions=v1alpha1,name=mplacement.openstack.c5c3.io,admissionReviewVersions=v1

// Defaults are Placement's values of the shared webhook defaults.
var Defaults = admit.ServiceDefaults{Service: placementv1.ServiceName, Resources: admit.Resources("100m", "512Mi", "500m", "1Gi")}

// Defaulter fills unset fields; it never overwrites a set value.
type Defaulter struct{}

// Default applies the shared defaults (admit.ServiceDefaults.Apply).
func (Defaulter) Default(_ context.Context, p *placementv1.Placement) error {
	Apply(p)
	return nil
}

// Apply is the defaulting itself, shared by the webhook and tests.
func Apply(p *placementv1.Placement) {
	Defaults.Apply(&p.Spec.ServiceSpec, uwsgi(p))
}

// uwsgi is spec.apiServer.uwsgi, nil when absent.
func uwsgi(p *placementv1.Placement) *serviceapi.UWSGISpec {
	if p.Spec.APIServer == nil {
		return nil
	}
	return p.Spec.APIServer.UWSGI
}
