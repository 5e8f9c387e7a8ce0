package validation

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// want is one expected field error: type and path, plus message fragments.
type want struct {
	typ   field.ErrorType
	path  string
	inMsg []string
}

type ruleCase struct {
	name string
	got  field.ErrorList
	want []want
}

// checkRules asserts each case yields exactly the expected errors, in order.
func checkRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			if len(tc.got) != len(tc.want) {
				t.Fatalf("got %d errors %v, want %d: %+v", len(tc.got), tc.got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				e := tc.got[i]
				if e.Type != w.typ || e.Field != w.path {
					t.Errorf("error %d = %s at %s, want %s at %s (%v)", i, e.Type, e.Field, w.typ, w.path, e)
				}
				if !isASCII(e.Detail) {
					t.Errorf("error %d detail %q is not ASCII", i, e.Detail)
				}
				for _, frag := range w.inMsg {
					if !strings.Contains(e.Error(), frag) {
						t.Errorf("error %d %q does not mention %q", i, e.Error(), frag)
					}
				}
			}
		})
	}
}

// isASCII reports whether a user-visible message uses plain ASCII only, so it
// reads the same in every terminal and log pipeline.
func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] > unicode.MaxASCII {
			return false
		}
	}
	return true
}

func errTypes(l field.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}

func TestNoCRLF(t *testing.T) {
	p := field.NewPath("spec", "region")
	checkRules(t, []ruleCase{
		{name: "plain", got: NoCRLF(p, "RegionOne")},
		{name: "CR", got: NoCRLF(p, "Region\rOne"), want: []want{{field.ErrorTypeInvalid, "spec.region", []string{"CR or LF"}}}},
		{name: "LF", got: NoCRLF(p, "Region\n"), want: []want{{field.ErrorTypeInvalid, "spec.region", nil}}},
	})
}

func TestDeterministicOrder(t *testing.T) {
	// Rules iterating maps must still report in a stable order.
	first := errTypes(Autoscaling(field.NewPath("spec", "autoscaling"), autoscaling(nil, 3, i32(0), i32(101)), 1))
	for range 50 {
		if got := errTypes(Autoscaling(field.NewPath("spec", "autoscaling"), autoscaling(nil, 3, i32(0), i32(101)), 1)); !slices.Equal(got, first) {
			t.Fatalf("Autoscaling order changed: %v vs %v", got, first)
		}
	}
}
