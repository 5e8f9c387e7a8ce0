package admissiontest

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// WarningCase is one admitted object and the warnings it must draw. Old
// nil is a create; otherwise the update starts from the valid object Old
// changed, and Mut changes that.
type WarningCase[T client.Object] struct {
	Name     string
	Old, Mut func(T)
	// Want holds one substring per warning, in order.
	Want []string
}

// Warnings runs each case through validate on a fresh valid object: the
// object must be admitted with exactly the wanted warnings.
func Warnings[T client.Object](t *testing.T, valid func() T, validate func(context.Context, T, T) (ctrladmission.Warnings, error), cases []WarningCase[T]) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			var old T
			obj := valid()
			if tc.Old != nil {
				old = valid()
				tc.Old(old)
				obj = old.DeepCopyObject().(T)
			}
			tc.Mut(obj)
			w, err := validate(context.Background(), obj, old)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			matches := len(w) == len(tc.Want)
			for i := 0; matches && i < len(w); i++ {
				matches = strings.Contains(w[i], tc.Want[i])
			}
			if !matches {
				t.Errorf("warnings = %q, want one per substring of %q", w, tc.Want)
			}
		})
	}
}
