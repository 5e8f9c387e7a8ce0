package webhook

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/framework/admit"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// The Glance webhook reads the PriorityClass a Glance names, to refuse
// one that does not exist before a pod would be refused for it.
// +kubebuilder:webhook:path=/validate-glance-openstack-c5c3-io-v1alpha1-glance,mutating=false,failurePolicy=fail,sideEffects=None,groups=glance.openstack.c5c3.io,resources=glances,verbs=create;update,versions=v1alpha1,name=vglance.openstack.c5c3.io,admissionReviewVersions=v1
// +kubebuilder:rbac:groups=scheduling.k8s.io,resources=priorityclasses,verbs=get

// Kinds named in the refusals.
var (
	GlanceKind  = glancev1.GroupVersion.WithKind("Glance").GroupKind()
	BackendKind = glancev1.GroupVersion.WithKind("GlanceBackend").GroupKind()
)

// catalogExempt are glance's own sections, absent from the generated catalogs.
var catalogExempt = []string{"os_glance_staging_store", "os_glance_tasks_store"}

// Validator checks Glances: the shared rules, Glance's own, the PriorityClass
// lookup and the extraConfig catalog, answered as one 422 Invalid.
type Validator struct {
	// Reader looks up PriorityClasses.
	Reader   client.Reader
	Catalogs *extraconfig.Catalogs
}

// Hook is the validator as controller-runtime registers it.
func (v *Validator) Hook() admit.Validator[*glancev1.Glance] { return v.Validate }

// Validate checks g; old is nil on create.
func (v *Validator) Validate(ctx context.Context, g, old *glancev1.Glance) (ctrladmission.Warnings, error) {
	svc := admit.Service{Kind: GlanceKind, Name: glancev1.ServiceName, Owned: render.OwnedKeys, Reader: v.Reader, Catalogs: v.Catalogs}
	var prev *admit.Object
	if old != nil {
		prev = new(object(old))
	}
	return svc.Admit(ctx, object(g), prev, Spec(g, old), Warnings(g, old))
}

// object is g as the shared checks read it: spec.plugins sections are
// checked by their plugin, not by glance's catalog.
func object(g *glancev1.Glance) admit.Object {
	exempt := append([]string{}, catalogExempt...)
	for _, p := range g.Spec.Plugins {
		exempt = append(exempt, p.ConfigSection)
	}
	return admit.Object{Name: g.Name, Spec: &g.Spec.ServiceSpec, CatalogExempt: exempt}
}

// Spec runs every rule that needs no lookup; old is nil on create.
func Spec(g, old *glancev1.Glance) field.ErrorList {
	var errs field.ErrorList
	if old == nil {
		errs = append(admit.ServiceSpec(g.Name, glancev1.ServiceName, &g.Spec.ServiceSpec, nil, uwsgi(g)), nameLength(g)...)
	} else {
		errs = admit.ServiceSpec(g.Name, glancev1.ServiceName, &g.Spec.ServiceSpec, &old.Spec.ServiceSpec, uwsgi(g))
	}
	s, sp := &g.Spec, field.NewPath("spec")
	errs = append(errs, workers(sp.Child("apiServer", "workers"), s.APIServer)...)
	errs = append(errs, importFiltering(sp.Child("importFiltering"), s.ImportFiltering)...)
	errs = append(errs, importPlugins(sp.Child("importPlugins"), s.ImportPlugins, s.Staging)...)
	errs = append(errs, dbPurge(sp.Child("dbPurge"), s.DBPurge)...)
	errs = append(errs, staging(sp.Child("staging"), s.Staging)...)
	errs = append(errs, imageCache(sp.Child("imageCache"), s.ImageCache)...)
	errs = append(errs, middleware(sp.Child("middleware"), s.Middleware, s.ImageCache != nil)...)
	errs = append(errs, plugins(sp.Child("plugins"), s.Plugins)...)
	return errs
}

// nameLength bounds new names so <name>-db-purge fits the CronJob name
// limit; older, longer names keep working with a hashed CronJob name.
func nameLength(g *glancev1.Glance) field.ErrorList {
	if len(g.Name) <= render.MaxNameLength {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), g.Name, fmt.Sprintf(
		"must be at most %d characters, so the CronJob %s-db-purge fits the 52-character CronJob name limit",
		render.MaxNameLength, g.Name))}
}

func workers(p *field.Path, a *glancev1.APIServerSpec) field.ErrorList {
	if a != nil && a.Workers != nil && *a.Workers < 1 {
		return field.ErrorList{field.Invalid(p, *a.Workers, "must be at least 1")}
	}
	return nil
}
