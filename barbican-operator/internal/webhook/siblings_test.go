package webhook

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// notDefault is store(name) without isDefault.
func notDefault(name string) *barbicanv1.BarbicanSecretStore {
	s := store(name)
	s.Spec.IsDefault = false
	return s
}

// The sibling rules of barbican-api.md §3.4: among the live stores of the
// same Barbican in the same namespace, no second default and no second
// OpenBao store.
func TestStoreSiblingRules(t *testing.T) {
	terminating := store("old")
	terminating.Finalizers, terminating.DeletionTimestamp = []string{"x"}, new(metav1.Now())
	otherBarbican := managedStore("openstack", "other", "barbican-b")
	otherNamespace := managedStore("tenant", "elsewhere", "barbican")
	cases := []struct {
		name     string
		siblings []client.Object
		self     *barbicanv1.BarbicanSecretStore
		want     []at.FieldErr
		says     []string
	}{
		{"first store", nil, store("vault"), nil, nil},
		{"second default OpenBao store", []client.Object{store("a")}, store("vault"),
			errsOf(at.Forbidden("spec.isDefault"), at.Forbidden("spec.type")),
			[]string{`Barbican "barbican" already has the default store a; unset isDefault there first`,
				`Barbican "barbican" already has the OpenBao store a; a Barbican takes one OpenBao store`}},
		{"second OpenBao store, not default", []client.Object{store("a"), notDefault("b")}, notDefault("vault"),
			errsOf(at.Forbidden("spec.type")), []string{"already has the OpenBao store a, b"}},
		{"default beside a non-default", []client.Object{notDefault("a")}, store("vault"),
			errsOf(at.Forbidden("spec.type")), nil},
		{"terminating, other Barbican, other namespace ignored", []client.Object{terminating, otherBarbican, otherNamespace},
			store("vault"), nil, nil},
		{"itself on update", []client.Object{store("vault")}, store("vault"), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := storeValidator(nil, tc.siblings...).Validate(context.Background(), tc.self, nil)
			if got := at.Causes(t, err, StoreKind); !slices.Equal(got, tc.want) {
				t.Fatalf("causes = %v, want %v (%v)", got, tc.want, err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("refusal does not say %q: %v", s, err)
				}
			}
		})
	}
}

// The siblings are listed through the given reader, in the store's
// namespace; a failed LIST fails the request instead of refusing the store.
func TestStoreSiblingLookup(t *testing.T) {
	var namespaces []string
	spy := &interceptor.Funcs{List: func(ctx context.Context, c client.WithWatch, list client.ObjectList, opts ...client.ListOption) error {
		o := &client.ListOptions{}
		o.ApplyOptions(opts)
		namespaces = append(namespaces, o.Namespace)
		return c.List(ctx, list, opts...)
	}}
	if _, err := storeValidator(spy).Validate(context.Background(), store("vault"), nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(namespaces, []string{"openstack"}) {
		t.Errorf("listed namespaces %q, want [openstack]", namespaces)
	}
	boom := storeValidator(&interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
		return errors.New("etcd unavailable")
	}})
	if _, err := boom.Validate(context.Background(), store("vault"), nil); !apierrors.IsInternalError(err) {
		t.Errorf("failed LIST: %v, want InternalError", err)
	}
	// A terminating store passes unchecked, so it can always lose a finalizer;
	// a delete is never validated.
	self := store("a")
	self.Finalizers, self.DeletionTimestamp = []string{"x"}, new(metav1.Now())
	if w, err := boom.Hook().ValidateUpdate(context.Background(), self.DeepCopy(), self); err != nil || w != nil {
		t.Errorf("terminating update checked: %q %v", w, err)
	}
	if w, err := boom.Hook().ValidateDelete(context.Background(), self); err != nil || w != nil {
		t.Errorf("delete checked: %q %v", w, err)
	}
}

// Updates are held to the sibling rules too: flipping isDefault on while
// another store of the Barbican is default is refused.
func TestStoreSiblingRulesOnUpdate(t *testing.T) {
	old := notDefault("vault")
	old.Spec.BarbicanRef.Name = "barbican-b"
	other := managedStore("openstack", "a", "barbican-b")
	other.Spec.Type = "Legacy" // only a stored object can carry another type
	s := old.DeepCopy()
	s.Spec.IsDefault = true
	_, err := storeValidator(nil, other).Validate(context.Background(), s, old)
	if got := at.Causes(t, err, StoreKind); !slices.Equal(got, errsOf(at.Forbidden("spec.isDefault"))) {
		t.Errorf("causes = %v (%v)", got, err)
	}
}
