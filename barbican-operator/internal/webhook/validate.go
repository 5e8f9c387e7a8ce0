package webhook

import (
	"context"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/admit"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
)

// The Barbican webhook reads the PriorityClass a Barbican names, to refuse
// one that does not exist before a pod would be refused for it.
// +kubebuilder:webhook:path=/validate-barbican-openstack-c5c3-io-v1alpha1-barbican,mutating=false,failurePolicy=fail,sideEffects=None,groups=barbican.openstack.c5c3.io,resources=barbicans,verbs=create;update,versions=v1alpha1,name=vbarbican.openstack.c5c3.io,admissionReviewVersions=v1
// +kubebuilder:rbac:groups=scheduling.k8s.io,resources=priorityclasses,verbs=get

// BarbicanKind and StoreKind name the refused object in a 422.
var (
	BarbicanKind = barbicanv1.GroupVersion.WithKind("Barbican").GroupKind()
	StoreKind    = barbicanv1.GroupVersion.WithKind("BarbicanSecretStore").GroupKind()
)

// storeSectionPrefix starts the section of each attached store,
// [secretstore:<store>]: barbican's runtime name, absent from the catalogs.
const storeSectionPrefix = "secretstore:"

// Validator checks Barbicans: the shared rules, Barbican's own, the
// PriorityClass lookup and the extraConfig guards, answered as one 422
// Invalid with every violation, plus the admission warnings. The owned keys
// are the renderer's registry (render.OwnedKeys): its rejected keys are
// refused with their reason, and every registered key skips the catalog.
type Validator struct {
	// Reader looks up PriorityClasses; the API reader, not the cache.
	Reader client.Reader
	// Catalogs are the embedded option catalogs (internal/catalog).
	Catalogs *extraconfig.Catalogs
}

// Hook adapts Validate to controller-runtime: a Barbican being deleted
// passes unchecked (only finalizers change), and a delete is not validated.
func (v *Validator) Hook() admit.Validator[*barbicanv1.Barbican] { return v.Validate }

// Validate checks b; old is nil on create.
func (v *Validator) Validate(ctx context.Context, b, old *barbicanv1.Barbican) (ctrladmission.Warnings, error) {
	svc := admit.Service{Kind: BarbicanKind, Name: barbicanv1.ServiceName, Owned: render.OwnedKeys, Reader: v.Reader, Catalogs: v.Catalogs}
	cur := object(b)
	var base *admit.Object
	switch {
	case len(b.Spec.ExtraConfig) == 0:
		// Nothing for the catalog to check: the object is its own baseline,
		// so a release without a catalog draws no "catalog skipped" warning.
		base = &cur
	case old != nil:
		base = new(object(old))
	}
	return svc.Admit(ctx, cur, base, Spec(b, old), Warnings(b, old))
}

// object is b as the shared checks read it. A store's [secretstore:<store>]
// section is exempt from the catalog; its names, CR/LF and refused keys are
// checked all the same.
func object(b *barbicanv1.Barbican) admit.Object {
	var exempt []string
	for section := range b.Spec.ExtraConfig {
		if strings.HasPrefix(section, storeSectionPrefix) && len(section) > len(storeSectionPrefix) {
			exempt = append(exempt, section)
		}
	}
	return admit.Object{Name: b.Name, Spec: &b.Spec.ServiceSpec, CatalogExempt: exempt}
}

// Spec runs every Barbican rule that needs no lookup; old is nil on create.
func Spec(b, old *barbicanv1.Barbican) field.ErrorList {
	s, sp := &b.Spec, field.NewPath("spec")
	var errs field.ErrorList
	if old == nil {
		errs = admit.ServiceSpec(b.Name, barbicanv1.ServiceName, &s.ServiceSpec, nil, uwsgi(b))
		errs = append(errs, nameLength(b.Name)...)
	} else {
		errs = admit.ServiceSpec(b.Name, barbicanv1.ServiceName, &s.ServiceSpec, &old.Spec.ServiceSpec, uwsgi(b))
	}
	errs = append(errs, gatewayHostname(sp.Child("gateway", "hostname"), s.Gateway)...)
	errs = append(errs, dbClean(sp.Child("dbClean"), s.DBClean)...)
	errs = append(errs, pluginConfig(sp.Child("plugins"), s.Plugins)...)
	errs = append(errs, middlewareConfig(sp.Child("middleware"), s.Middleware)...)
	return errs
}
