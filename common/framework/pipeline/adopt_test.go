package pipeline

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metaScope is a scope whose CR has metadata a member may write.
type metaScope struct {
	obj   *metav1.ObjectMeta
	conds []metav1.Condition
}

func (s *metaScope) Conditions() *[]metav1.Condition { return &s.conds }
func (s *metaScope) CRMeta() metav1.Object           { return s.obj }
func (s *metaScope) Fork() *metaScope {
	return &metaScope{obj: s.obj.DeepCopy(), conds: append([]metav1.Condition(nil), s.conds...)}
}

// patchAnnotation stands in for a member merge-patching the CR: the server
// answers with the stored annotations and a new resourceVersion.
func patchAnnotation(key, rv string) func(struct{}, context.Context, *metaScope) (Outcome, error) {
	return func(_ struct{}, _ context.Context, s *metaScope) (Outcome, error) {
		ann := map[string]string{}
		for k, v := range s.obj.Annotations {
			ann[k] = v
		}
		ann[key] = "uid"
		s.obj.Annotations, s.obj.ResourceVersion = ann, rv
		s.conds = append(s.conds, metav1.Condition{Type: key, Status: metav1.ConditionTrue})
		return Continue(), nil
	}
}

func TestParallelAdoptsTheNewestMemberWrite(t *testing.T) {
	type st = Step[struct{}, *metaScope]
	noop := func(_ struct{}, _ context.Context, s *metaScope) (Outcome, error) {
		s.conds = append(s.conds, metav1.Condition{Type: "Quiet", Status: metav1.ConditionTrue})
		return Continue(), nil
	}
	for _, tc := range []struct {
		name    string
		members []st
		wantRV  string
		wantAnn []string
	}{
		{"no member writes", []st{{Name: "a", Condition: "Quiet", Run: noop}}, "10", nil},
		{"one member writes", []st{{Name: "a", Condition: "Quiet", Run: noop}, {Name: "b", Condition: "purge", Run: patchAnnotation("purge", "12")}}, "12", []string{"purge"}},
		{"the newest write wins", []st{{Name: "b", Condition: "late", Run: patchAnnotation("late", "15")}, {Name: "c", Condition: "early", Run: patchAnnotation("early", "11")}}, "15", []string{"late"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &metaScope{obj: &metav1.ObjectMeta{Name: "g", ResourceVersion: "10", Annotations: map[string]string{"keep": "me"}}}
			if _, err := New(nil, Parallel(tc.members...)).Run(context.Background(), struct{}{}, s); err != nil {
				t.Fatal(err)
			}
			if s.obj.ResourceVersion != tc.wantRV {
				t.Errorf("resourceVersion %q, want %q", s.obj.ResourceVersion, tc.wantRV)
			}
			if s.obj.Annotations["keep"] != "me" {
				t.Errorf("annotations lost: %v", s.obj.Annotations)
			}
			for _, k := range tc.wantAnn {
				if s.obj.Annotations[k] != "uid" {
					t.Errorf("annotation %s not adopted: %v", k, s.obj.Annotations)
				}
			}
			if len(s.conds) != len(tc.members) {
				t.Errorf("conditions %v, want one per member", s.conds)
			}
		})
	}
}
