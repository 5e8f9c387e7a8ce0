package webhook

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/admit"
)

// The BarbicanSecretStore webhook lists the stores of the namespace to refuse
// a second default or a second OpenBao store for one Barbican.
// +kubebuilder:webhook:path=/validate-barbican-openstack-c5c3-io-v1alpha1-barbicansecretstore,mutating=false,failurePolicy=fail,sideEffects=None,groups=barbican.openstack.c5c3.io,resources=barbicansecretstores,verbs=create;update,versions=v1alpha1,name=vbarbicansecretstore.openstack.c5c3.io,admissionReviewVersions=v1
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicansecretstores,verbs=list

// StoreValidator checks BarbicanSecretStores: the lookup-free rules of
// StoreSpec and the sibling rules, answered as one 422 Invalid. It never
// warns.
type StoreValidator struct {
	// Reader lists the sibling stores; it must be uncached
	// (mgr.GetAPIReader()), or two stores applied together would both pass.
	Reader client.Reader
}

// Hook adapts Validate to controller-runtime: a store being deleted passes
// unchecked, and a delete is not validated.
func (v *StoreValidator) Hook() admit.Validator[*barbicanv1.BarbicanSecretStore] {
	return v.Validate
}

// Validate checks s; old is nil on create. When the siblings cannot be
// listed the answer is an internal error, never a refusal of s.
func (v *StoreValidator) Validate(ctx context.Context, s, old *barbicanv1.BarbicanSecretStore) (ctrladmission.Warnings, error) {
	siblings, err := v.siblings(ctx, s)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	errs := append(StoreSpec(s, old), siblingRules(s, siblings)...)
	return admit.Answer(StoreKind, s.Name, errs, nil)
}

// siblings are the other live stores of s's Barbican: same namespace, same
// barbicanRef, not terminating.
func (v *StoreValidator) siblings(ctx context.Context, s *barbicanv1.BarbicanSecretStore) ([]barbicanv1.BarbicanSecretStore, error) {
	var list barbicanv1.BarbicanSecretStoreList
	if err := v.Reader.List(ctx, &list, client.InNamespace(s.Namespace)); err != nil {
		return nil, fmt.Errorf("listing BarbicanSecretStores in %s: %w", s.Namespace, err)
	}
	var out []barbicanv1.BarbicanSecretStore
	for _, o := range list.Items {
		if o.Name != s.Name && o.DeletionTimestamp == nil && o.Spec.BarbicanRef.Name == s.Spec.BarbicanRef.Name {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(a, b barbicanv1.BarbicanSecretStore) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// siblingRules refuse a second default store and a second OpenBao store of
// one Barbican: barbican starts with exactly one global default, and
// [vault_plugin] is process-global, so only one OpenBao store can fill it.
func siblingRules(s *barbicanv1.BarbicanSecretStore, siblings []barbicanv1.BarbicanSecretStore) field.ErrorList {
	var defaults, openBao []string
	for _, o := range siblings {
		if o.Spec.IsDefault {
			defaults = append(defaults, o.Name)
		}
		if o.Spec.Type == barbicanv1.StoreOpenBao {
			openBao = append(openBao, o.Name)
		}
	}
	parent := "Barbican " + strconv.QuoteToASCII(s.Spec.BarbicanRef.Name)
	sp := field.NewPath("spec")
	var errs field.ErrorList
	if s.Spec.IsDefault && len(defaults) > 0 {
		errs = append(errs, field.Forbidden(sp.Child("isDefault"), fmt.Sprintf(
			"%s already has the default store %s; unset isDefault there first, barbican refuses to start with two global defaults",
			parent, strings.Join(defaults, ", "))))
	}
	if s.Spec.Type == barbicanv1.StoreOpenBao && len(openBao) > 0 {
		errs = append(errs, field.Forbidden(sp.Child("type"), fmt.Sprintf(
			"%s already has the OpenBao store %s; a Barbican takes one OpenBao store, since [vault_plugin] is process-global: "+
				"delete that store first or attach this one to another Barbican", parent, strings.Join(openBao, ", "))))
	}
	return errs
}
