package webhook

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/admission"
	"github.com/c5c3/openstack-operators/common/extraconfig"
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
func (v *Validator) ValidateCreate(ctx context.Context, p *placementv1.Placement) (ctrladmission.Warnings, error) {
	return admission.Validator[*placementv1.Placement](v.validate).ValidateCreate(ctx, p)
}

// ValidateUpdate checks an update; the catalog only when extraConfig or the
// release changed; a terminating Placement is admitted unchecked.
func (v *Validator) ValidateUpdate(ctx context.Context, old, p *placementv1.Placement) (ctrladmission.Warnings, error) {
	return admission.Validator[*placementv1.Placement](v.validate).ValidateUpdate(ctx, old, p)
}

// ValidateDelete admits every delete.
func (v *Validator) ValidateDelete(context.Context, *placementv1.Placement) (ctrladmission.Warnings, error) {
	return nil, nil
}

func (v *Validator) validate(ctx context.Context, p, old *placementv1.Placement) (ctrladmission.Warnings, error) {
	svc := admission.Service{Kind: placementv1.GroupVersion.WithKind("Placement").GroupKind(), Name: placementv1.ServiceName,
		Owned: render.OwnedKeys, Reader: v.Reader, Catalogs: v.Catalogs}
	var oldObj *admission.Object
	if old != nil {
		oldObj = &admission.Object{Name: old.Name, Spec: &old.Spec.ServiceSpec}
	}
	return svc.Admit(ctx, admission.Object{Name: p.Name, Spec: &p.Spec.ServiceSpec}, oldObj, Spec(p, old), nil)
}

// Spec runs every rule that needs no lookup; old is nil on create. Placement
// has no rule of its own beyond the shared spec's.
func Spec(p, old *placementv1.Placement) field.ErrorList {
	if old == nil {
		return admission.ServiceSpec(p.Name, placementv1.ServiceName, &p.Spec.ServiceSpec, nil, uwsgi(p))
	}
	return admission.ServiceSpec(p.Name, placementv1.ServiceName, &p.Spec.ServiceSpec, &old.Spec.ServiceSpec, uwsgi(p))
}
