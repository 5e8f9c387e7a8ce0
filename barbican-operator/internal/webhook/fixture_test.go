package webhook

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/catalog"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// newBarbican has only the required fields, as a user writes it.
func newBarbican(namespace, name string) *barbicanv1.Barbican {
	return &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: barbicanv1.BarbicanSpec{ServiceSpec: testenv.ServiceSpec(barbicanv1.ServiceName)}}
}

// bare is the smallest Barbican; valid is it defaulted, passing every rule.
func bare() *barbicanv1.Barbican { return newBarbican("openstack", "barbican") }

func valid() *barbicanv1.Barbican {
	b := bare()
	Apply(b)
	return b
}

// managedStore is a default store of barbican on the OpenBaoCluster openbao.
func managedStore(namespace, name, barbican string) *barbicanv1.BarbicanSecretStore {
	return &barbicanv1.BarbicanSecretStore{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: barbicanv1.BarbicanSecretStoreSpec{
			BarbicanRef: barbicanv1.BarbicanRef{Name: barbican},
			Type:        barbicanv1.StoreOpenBao,
			IsDefault:   true,
			OpenBao:     &barbicanv1.OpenBaoSpec{InstanceRef: &barbicanv1.InstanceRef{Name: "openbao"}},
		},
	}
}

// brownfieldStore is a default store of barbican on an existing server.
func brownfieldStore(namespace, name, barbican string) *barbicanv1.BarbicanSecretStore {
	s := managedStore(namespace, name, barbican)
	s.Spec.OpenBao = &barbicanv1.OpenBaoSpec{
		Server: &barbicanv1.OpenBaoServer{URL: "https://vault.example.org:8200",
			CredentialsSecretRef: barbicanv1.SecretRef{Name: "vault-approle"}},
		KVMountpoint: "secret",
		Namespace:    "tenant-a",
	}
	return s
}

// store is a managed store of the Barbican "barbican" in "openstack".
func store(name string) *barbicanv1.BarbicanSecretStore {
	return managedStore("openstack", name, "barbican")
}

func barbicanValidator(t *testing.T, funcs *interceptor.Funcs) *Validator {
	t.Helper()
	cats, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &Validator{Reader: at.FakeReader(barbicanv1.AddToScheme, funcs), Catalogs: cats}
}

func storeValidator(funcs *interceptor.Funcs, siblings ...client.Object) *StoreValidator {
	return &StoreValidator{Reader: at.FakeReader(barbicanv1.AddToScheme, funcs, siblings...)}
}

// wantErrs fails t unless errs are exactly want and, when says is set, the
// first error's detail contains it.
func wantErrs(t *testing.T, errs field.ErrorList, want []at.FieldErr, says string) {
	t.Helper()
	got := at.Summarize(errs)
	switch {
	case !slices.Equal(got, want):
		t.Fatalf("errors = %v, want %v\n(%v)", got, want, errs)
	case says != "" && !strings.Contains(errs[0].Detail, says):
		t.Errorf("detail %q lacks %q", errs[0].Detail, says)
	}
}

// errsOf sorts expected field errors as Summarize and Causes do.
func errsOf(fes ...at.FieldErr) []at.FieldErr { return at.Sorted(fes) }

func notSupported(path string) at.FieldErr {
	return at.FieldErr{Type: field.ErrorTypeNotSupported, Path: path}
}
