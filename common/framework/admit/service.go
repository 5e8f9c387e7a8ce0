package admit

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/validation"
)

// ServiceSpec runs the lookup-free rules of serviceapi.ServiceSpec; spread
// constraints must select exactly name=service, instance=name. old is nil on
// create, uwsgi nil when the operator's block is absent.
func ServiceSpec(name, service string, s, old *serviceapi.ServiceSpec, uwsgi *serviceapi.UWSGISpec) field.ErrorList {
	sp := field.NewPath("spec")
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, validation.TargetClusterRef(sp.Child("targetClusterRef"), s.TargetClusterRef, old.TargetClusterRef, true)...)
	} else {
		errs = append(errs, validation.TargetClusterRef(sp.Child("targetClusterRef"), s.TargetClusterRef, nil, false)...)
	}
	errs = append(errs, validation.Image(sp.Child("image"), s.Image)...)
	errs = append(errs, validation.Database(sp.Child("database"), s.Database)...)
	errs = append(errs, validation.Cache(sp.Child("cache"), s.Cache)...)
	errs = append(errs, validation.Deployment(sp.Child("deployment"), s.Deployment)...)
	up := sp.Child("apiServer", "uwsgi")
	errs = append(errs, validation.UWSGI(up, uwsgi)...)
	errs = append(errs, validation.Harakiri(up.Child("harakiri"), uwsgi, s.Deployment)...)
	errs = append(errs, validation.Autoscaling(sp.Child("autoscaling"), s.Autoscaling, s.Deployment.EffectiveReplicas())...)
	errs = append(errs, validation.NetworkPolicy(sp.Child("networkPolicy"), s.NetworkPolicy)...)
	errs = append(errs, validation.Gateway(sp.Child("gateway"), s.Gateway)...)
	errs = append(errs, validation.KeystoneURL(sp.Child("keystoneEndpoint"), s.KeystoneEndpoint, true)...)
	errs = append(errs, validation.KeystoneURL(sp.Child("keystonePublicEndpoint"), s.KeystonePublicEndpoint, false)...)
	errs = append(errs, validation.NoCRLF(sp.Child("region"), s.Region)...)
	errs = append(errs, validation.ServiceUser(sp.Child("serviceUser"), s.ServiceUser)...)
	errs = append(errs, validation.Logging(sp.Child("logging"), s.Logging)...)
	errs = append(errs, validation.SecretStoreRef(sp.Child("secretStoreRef"), s.SecretStoreRef)...)
	tp := sp.Child("deployment", "topologySpreadConstraints")
	errs = append(errs, validation.SpreadConstraints(tp, s.Deployment)...)
	errs = append(errs, validation.SpreadSelectors(tp, s.Deployment,
		map[string]string{"app.kubernetes.io/name": service, "app.kubernetes.io/instance": name})...)
	return errs
}

// Service answers the admission requests of one service kind.
type Service struct {
	// Kind names the refused object in the 422.
	Kind schema.GroupKind
	// Name is the OpenStack service; it names the option catalog in messages.
	Name string
	// Owned are the operator's owned config keys.
	Owned extraconfig.Registry
	// Reader looks up PriorityClasses.
	Reader client.Reader
	// Catalogs are the operator's embedded option catalogs.
	Catalogs *extraconfig.Catalogs
}

// Object is a service CR as the shared checks read it.
type Object struct {
	Name string
	Spec *serviceapi.ServiceSpec
	// CatalogExempt are extraConfig sections the catalog does not check (a
	// plugin's sections, sections the service itself defines); names, CR/LF
	// and owned keys are checked there all the same.
	CatalogExempt []string
}

// Admit adds the PriorityClass lookup and the extraConfig check to the
// kind's own errors and warnings and answers the request. old is nil on
// create. A failed lookup fails the request instead of refusing the object.
func (s Service) Admit(ctx context.Context, obj Object, old *Object, errs field.ErrorList, warnings []string) (admission.Warnings, error) {
	pcErrs, err := priorityClass(ctx, s.Reader, obj.Spec.Deployment)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	ecErrs, ecWarnings := s.extraConfig(obj, old)
	errs = append(append(errs, pcErrs...), ecErrs...)
	return Answer(s.Kind, obj.Name, errs, append(warnings, ecWarnings...))
}

// extraConfig checks names, CR/LF and rejected owned keys always; the catalog
// on create, and on update only when the release, extraConfig or the exempt
// sections changed, so an object admitted under an older catalog stays editable.
func (s Service) extraConfig(obj Object, old *Object) (field.ErrorList, []string) {
	spec := obj.Spec
	checkCatalog := old == nil || old.Spec.OpenStackRelease != spec.OpenStackRelease ||
		!reflect.DeepEqual(old.Spec.ExtraConfig, spec.ExtraConfig) || !sameSet(old.CatalogExempt, obj.CatalogExempt)
	checked, exempt := splitSections(spec.ExtraConfig, obj.CatalogExempt)
	cat, _ := s.Catalogs.For(spec.OpenStackRelease)
	path := field.NewPath("spec", "extraConfig")
	errs, warnings := extraconfig.Validate(path, checked, s.Owned, s.Name, cat, spec.OpenStackRelease, checkCatalog)
	if len(exempt) == 0 {
		return errs, warnings
	}
	exemptErrs, _ := extraconfig.Validate(path, exempt, s.Owned, s.Name, nil, spec.OpenStackRelease, false)
	errs = append(errs, exemptErrs...)
	slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
	return errs, warnings
}

// splitSections separates the sections of extra named in exempt.
func splitSections(extra map[string]map[string]string, exempt []string) (checked, skipped map[string]map[string]string) {
	checked = maps.Clone(extra)
	for _, sec := range exempt {
		if kv, ok := checked[sec]; ok {
			if skipped == nil {
				skipped = map[string]map[string]string{}
			}
			skipped[sec] = kv
			delete(checked, sec)
		}
	}
	return checked, skipped
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// priorityClass refuses a deployment.priorityClassName that does not exist.
func priorityClass(ctx context.Context, r client.Reader, d *serviceapi.DeploymentSpec) (field.ErrorList, error) {
	if d == nil || d.PriorityClassName == nil || *d.PriorityClassName == "" {
		return nil, nil
	}
	var pc schedulingv1.PriorityClass
	err := r.Get(ctx, client.ObjectKey{Name: *d.PriorityClassName}, &pc)
	if apierrors.IsNotFound(err) {
		return field.ErrorList{field.NotFound(field.NewPath("spec", "deployment", "priorityClassName"), *d.PriorityClassName)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up PriorityClass %s: %w", *d.PriorityClassName, err)
	}
	return nil, nil
}
