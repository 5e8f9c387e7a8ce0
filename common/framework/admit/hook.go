package admit

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// Answer is the reply to one request: the warnings in any case, and every
// violation together in one 422 Invalid naming the kind and object, so the
// user fixes them in one round. Every message is plain ASCII.
func Answer(kind schema.GroupKind, name string, errs field.ErrorList, warnings []string) (admission.Warnings, error) {
	if len(warnings) > 0 {
		warnings = asciiWarnings(warnings)
	}
	if len(errs) > 0 {
		return warnings, apierrors.NewInvalid(kind, name, asciiErrors(errs))
	}
	return warnings, nil
}

// Validator runs one check on create (old nil) and update. A terminating
// object's update only removes finalizers, so it passes unchecked: a rule
// turned false meanwhile (a deleted PriorityClass) must not hang it.
type Validator[T client.Object] func(ctx context.Context, obj, old T) (admission.Warnings, error)

// ValidateCreate checks a new object.
func (v Validator[T]) ValidateCreate(ctx context.Context, obj T) (admission.Warnings, error) {
	var none T
	return v(ctx, obj, none)
}

// ValidateUpdate checks an update unless the object is terminating.
func (v Validator[T]) ValidateUpdate(ctx context.Context, old, obj T) (admission.Warnings, error) {
	if obj.GetDeletionTimestamp() != nil {
		return nil, nil
	}
	return v(ctx, obj, old)
}

// ValidateDelete admits every delete.
func (v Validator[T]) ValidateDelete(context.Context, T) (admission.Warnings, error) {
	return nil, nil
}

// Defaulter turns a defaulting function into controller-runtime's
// admission.Defaulter.
type Defaulter[T runtime.Object] func(T)

// Default applies the defaults to obj.
func (d Defaulter[T]) Default(_ context.Context, obj T) error {
	d(obj)
	return nil
}
