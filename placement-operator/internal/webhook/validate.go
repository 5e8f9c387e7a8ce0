package webhook

import (
	"context"
	"fmt"
	"reflect"

	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/extraconfig"
	"github.com/c5c3/openstack-operators/common/validation"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// +kubebuilder:webhook:path=/validate-placement-openstack-c5c3-io-v1alpha1-placement,mutating=false,failurePolicy=fail,sideEffects=None,groups=placement.openstack.c5c3.io,resources=placements,verbs=create;update,versions=v1alpha1,name=vplacement.openstack.c5c3.io,admissionReviewVersions=v1

// Validator accumulates every violation of a Placement into one 422 Invalid.
type Validator struct {
	// Reader looks up PriorityClasses.
	Reader   client.Reader
	Catalogs *extraconfig.Catalogs
}

// ValidateCreate checks a new Placement, catalog included.
func (v *Validator) ValidateCreate(ctx context.Context, p *placementv1.Placement) (admission.Warnings, error) {
	return v.validate(ctx, p, nil)
}

// ValidateUpdate checks an update; the catalog only when extraConfig or the release changed.
// A terminating Placement is admitted unchecked: the controller only removes its
// finalizer, and a since-deleted PriorityClass must not hang it in Terminating.
func (v *Validator) ValidateUpdate(ctx context.Context, old, p *placementv1.Placement) (admission.Warnings, error) {
	if p.DeletionTimestamp != nil {
		return nil, nil
	}
	return v.validate(ctx, p, old)
}

// ValidateDelete admits every delete.
func (v *Validator) ValidateDelete(context.Context, *placementv1.Placement) (admission.Warnings, error) {
	return nil, nil
}

func (v *Validator) validate(ctx context.Context, p, old *placementv1.Placement) (admission.Warnings, error) {
	errs := Spec(p, old)
	pcErrs, err := v.priorityClass(ctx, p)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	errs = append(errs, pcErrs...)
	checkCatalog := old == nil || old.Spec.OpenStackRelease != p.Spec.OpenStackRelease ||
		!reflect.DeepEqual(old.Spec.ExtraConfig, p.Spec.ExtraConfig)
	cat, _ := v.Catalogs.For(p.Spec.OpenStackRelease)
	ecErrs, warnings := extraconfig.Validate(field.NewPath("spec", "extraConfig"), p.Spec.ExtraConfig,
		render.OwnedKeys, placementv1.ServiceName, cat, p.Spec.OpenStackRelease, checkCatalog)
	errs = append(errs, ecErrs...)
	if len(errs) > 0 {
		return warnings, apierrors.NewInvalid(placementv1.GroupVersion.WithKind("Placement").GroupKind(), p.Name, errs)
	}
	return warnings, nil
}

// Spec runs every rule that needs no lookup; old is nil on create.
func Spec(p, old *placementv1.Placement) field.ErrorList {
	s, sp := p.Spec, field.NewPath("spec")
	var errs field.ErrorList
	if old != nil {
		errs = append(errs, validation.TargetClusterRef(sp.Child("targetClusterRef"), s.TargetClusterRef, old.Spec.TargetClusterRef, true)...)
	} else {
		errs = append(errs, validation.TargetClusterRef(sp.Child("targetClusterRef"), s.TargetClusterRef, nil, false)...)
	}
	errs = append(errs, validation.Image(sp.Child("image"), s.Image)...)
	errs = append(errs, validation.Database(sp.Child("database"), s.Database)...)
	errs = append(errs, validation.Cache(sp.Child("cache"), s.Cache)...)
	errs = append(errs, validation.Deployment(sp.Child("deployment"), s.Deployment)...)
	if s.APIServer != nil {
		up := sp.Child("apiServer", "uwsgi")
		errs = append(errs, validation.UWSGI(up, s.APIServer.UWSGI)...)
		errs = append(errs, validation.Harakiri(up.Child("harakiri"), s.APIServer.UWSGI, s.Deployment)...)
	}
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
		map[string]string{"app.kubernetes.io/name": placementv1.ServiceName, "app.kubernetes.io/instance": p.Name})...)
	return errs
}

func (v *Validator) priorityClass(ctx context.Context, p *placementv1.Placement) (field.ErrorList, error) {
	d := p.Spec.Deployment
	if d == nil || d.PriorityClassName == nil || *d.PriorityClassName == "" {
		return nil, nil
	}
	var pc schedulingv1.PriorityClass
	err := v.Reader.Get(ctx, client.ObjectKey{Name: *d.PriorityClassName}, &pc)
	if apierrors.IsNotFound(err) {
		return field.ErrorList{field.NotFound(field.NewPath("spec", "deployment", "priorityClassName"), *d.PriorityClassName)}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("looking up PriorityClass %s: %w", *d.PriorityClassName, err)
	}
	return nil, nil
}
