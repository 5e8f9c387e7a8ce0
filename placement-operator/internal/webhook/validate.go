package webhook

import (
	"context"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/framework/admit"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
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
	return admit.Validator[*placementv1.Placement](v.validate).ValidateCreate(ctx, p)
}

// ValidateUpdate checks an update; the catalog only when extraConfig or the
// release changed; a terminating Placement is admitted unchecked.
func (v *Validator) ValidateUpdate(ctx context.Context, old, p *placementv1.Placement) (ctrladmission.Warnings, error) {
	return admit.Validator[*placementv1.Placement](v.validate).ValidateUpdate(ctx, old, p)
}

// ValidateDelete admits every delete.
func (v *Validator) ValidateDelete(context.Context, *placementv1.Placement) (ctrladmission.Warnings, error) {
	return nil, nil
}

func (v *Validator) validate(ctx context.Context, p, old *placementv1.Placement) (ctrladmission.Warnings, error) {
	svc := admit.Service{Kind: placementv1.GroupVersion.WithKind("Placement").GroupKind(), Name: placementv1.ServiceName,
		Owned: render.OwnedKeys, Reader: v.Reader, Catalogs: v.Catalogs}
	var oldObj *admit.Object
	if old != nil {
		oldObj = &admit.Object{Name: old.Name, Spec: &old.Spec.ServiceSpec}
	}
	return svc.Admit(ctx, admit.Object{Name: p.Name, Spec: &p.Spec.ServiceSpec}, oldObj, Spec(p, old), nil)
}

// Spec runs every rule that needs no lookup; old is nil on create. Placement
// has no rule of its own beyond the shared spec's.
func Spec(p, old *placementv1.Placement) field.ErrorList {
	if old == nil {
		return admit.ServiceSpec(p.Name, placementv1.ServiceName, &p.Spec.ServiceSpec, nil, uwsgi(p))
	}
	return admit.ServiceSpec(p.Name, placementv1.ServiceName, &p.Spec.ServiceSpec, &old.Spec.ServiceSpec, uwsgi(p))
}
