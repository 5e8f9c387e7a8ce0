package admissiontest

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
)

// FieldErr is the part of a field error a rule is identified by.
type FieldErr struct {
	Type field.ErrorType
	Path string
}

func (f FieldErr) String() string { return fmt.Sprintf("%s %s", f.Type, f.Path) }

// Invalid expects a FieldValueInvalid at path.
func Invalid(path string) FieldErr { return FieldErr{field.ErrorTypeInvalid, path} }

// Required expects a FieldValueRequired at path.
func Required(path string) FieldErr { return FieldErr{field.ErrorTypeRequired, path} }

// Forbidden expects a FieldValueForbidden at path.
func Forbidden(path string) FieldErr { return FieldErr{field.ErrorTypeForbidden, path} }

// NotFound expects a FieldValueNotFound at path.
func NotFound(path string) FieldErr { return FieldErr{field.ErrorTypeNotFound, path} }

// Summarize is errs as sorted FieldErrs.
func Summarize(errs field.ErrorList) []FieldErr {
	out := make([]FieldErr, 0, len(errs))
	for _, e := range errs {
		out = append(out, FieldErr{e.Type, e.Field})
	}
	return Sorted(out)
}

// Sorted sorts fes in place and returns them.
func Sorted(fes []FieldErr) []FieldErr {
	slices.SortFunc(fes, func(a, b FieldErr) int { return strings.Compare(a.String(), b.String()) })
	return fes
}

// Causes unpacks a 422 Invalid about kind into its sorted causes; nil err
// has none.
func Causes(t *testing.T, err error, kind schema.GroupKind) []FieldErr {
	t.Helper()
	if err == nil {
		return nil
	}
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is %T, want *StatusError", err, err)
	}
	st := se.Status()
	if st.Reason != metav1.StatusReasonInvalid || st.Code != http.StatusUnprocessableEntity {
		t.Fatalf("status reason %s code %d, want Invalid 422: %v", st.Reason, st.Code, err)
	}
	if st.Details == nil || st.Details.Kind != kind.Kind || st.Details.Group != kind.Group {
		t.Errorf("details = %+v, want %s", st.Details, kind)
	}
	out := make([]FieldErr, 0, len(st.Details.Causes))
	for _, c := range st.Details.Causes {
		out = append(out, FieldErr{field.ErrorType(c.Type), c.Field})
	}
	return Sorted(out)
}

// FakeReader is a fake client holding PriorityClass and objs, for unit tests
// of the lookups; funcs, when set, intercept its calls.
func FakeReader(addToScheme func(*runtime.Scheme) error, funcs *interceptor.Funcs, objs ...client.Object) client.Reader {
	b := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme(addToScheme)).
		WithObjects(append(objs, &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: PriorityClass}, Value: 1000})...)
	if funcs != nil {
		b = b.WithInterceptorFuncs(*funcs)
	}
	return b.Build()
}
