// Package webhook defaults and validates Glance and GlanceBackend objects at
// admission (glance-api.md §5). The rules every service kind shares live in
// common/framework/admission; this package adds Glance's own.
package webhook

import (
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/admit"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// +kubebuilder:webhook:path=/mutate-glance-openstack-c5c3-io-v1alpha1-glance,mutating=true,failurePolicy=fail,sideEffects=None,groups=glance.openstack.c5c3.io,resources=glances,verbs=create;update,versions=v1alpha1,name=mglance.openstack.c5c3.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/mutate-glance-openstack-c5c3-io-v1alpha1-glancebackend,mutating=true,failurePolicy=fail,sideEffects=None,groups=glance.openstack.c5c3.io,resources=glancebackends,verbs=create;update,versions=v1alpha1,name=mglancebackend.openstack.c5c3.io,admissionReviewVersions=v1

// Defaults are Glance's values of the shared webhook defaults.
var Defaults = admit.ServiceDefaults{Service: glancev1.ServiceName, Resources: admit.Resources("100m", "512Mi", "500m", "1Gi")}

// Defaulter and BackendDefaulter are the mutating webhooks of both kinds.
var (
	Defaulter        = admit.Defaulter[*glancev1.Glance](Apply)
	BackendDefaulter = admit.Defaulter[*glancev1.GlanceBackend](ApplyBackend)
)

// Apply is the Glance defaulting (webhook, and tests without one): the shared
// defaults only. importFiltering, importPlugins, dbPurge, staging and
// imageCache resolve at render time, so their defaults follow upgrades.
func Apply(g *glancev1.Glance) {
	Defaults.Apply(&g.Spec.ServiceSpec, uwsgi(g))
}

// ApplyBackend writes the S3 bucket URL format, path when unset.
func ApplyBackend(b *glancev1.GlanceBackend) {
	if b.Spec.S3 != nil && b.Spec.S3.BucketURLFormat == "" {
		b.Spec.S3.BucketURLFormat = glancev1.BucketURLPath
	}
}

// uwsgi is spec.apiServer.uwsgi, nil when absent.
func uwsgi(g *glancev1.Glance) *serviceapi.UWSGISpec {
	if a := g.Spec.APIServer; a != nil {
		return a.UWSGI
	}
	return nil
}
