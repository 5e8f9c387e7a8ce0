package pipeline

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/metrics"
)

// fakeCR stands in for an operator's custom resource.
type fakeCR struct {
	Value      string
	Conditions []metav1.Condition
}

func (c *fakeCR) deepCopy() *fakeCR {
	out := &fakeCR{Value: c.Value}
	out.Conditions = append([]metav1.Condition(nil), c.Conditions...)
	return out
}

// fakeScope implements Scope; forks share the recorder but not the CR.
type fakeScope struct {
	cr    *fakeCR
	rec   *recorder
	forks *int
}

func newScope() *fakeScope {
	return &fakeScope{cr: &fakeCR{Value: "original"}, rec: &recorder{}, forks: new(int)}
}

func (s *fakeScope) Conditions() *[]metav1.Condition { return &s.cr.Conditions }

func (s *fakeScope) Fork() *fakeScope {
	*s.forks++
	return &fakeScope{cr: s.cr.deepCopy(), rec: s.rec, forks: s.forks}
}

// recorder notes which steps ran and what they saw, safe for parallel members.
type recorder struct {
	mu   sync.Mutex
	ran  []string
	seen map[string]string
}

func (r *recorder) note(step, value string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ran = append(r.ran, step)
	if r.seen == nil {
		r.seen = map[string]string{}
	}
	r.seen[step] = value
}

func (r *recorder) ranSorted() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.ran)
	slices.Sort(out)
	return out
}

type reconciler struct{}

// step returns a step that records itself, sets its condition True on the
// scope it got, mutates that scope's CR and returns out, err.
func step(name, cond string, out Outcome, err error) Step[reconciler, *fakeScope] {
	return Step[reconciler, *fakeScope]{Name: name, Condition: cond, Run: func(_ reconciler, _ context.Context, s *fakeScope) (Outcome, error) {
		s.rec.note(name, s.cr.Value)
		s.cr.Value = "mutated by " + name
		if cond != "" {
			meta.SetStatusCondition(s.Conditions(), metav1.Condition{Type: cond, Status: metav1.ConditionTrue, Reason: "By" + name})
		}
		return out, err
	}}
}

var errBoom = errors.New("boom")

func TestRun_Sequential(t *testing.T) {
	tests := []struct {
		name      string
		steps     []Step[reconciler, *fakeScope]
		wantRan   []string
		wantOut   Outcome
		wantErrIn string
	}{
		{
			name:    "all continue",
			steps:   []Step[reconciler, *fakeScope]{step("a", "A", Continue(), nil), step("b", "B", Continue(), nil)},
			wantRan: []string{"a", "b"},
		},
		{
			name: "requeue stops the chain",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", RequeueAfter(15*time.Second), nil), step("b", "B", Continue(), nil),
			},
			wantRan: []string{"a"},
			wantOut: RequeueAfter(15 * time.Second),
		},
		{
			name: "error stops the chain and names the step",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", Continue(), nil), step("b", "B", Continue(), errBoom), step("c", "C", Continue(), nil),
			},
			wantRan:   []string{"a", "b"},
			wantErrIn: "b: boom",
		},
		{
			name: "proceed runs the rest and requeues at the end",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", ProceedAndRequeueAfter(10*time.Second), nil),
				Parallel(step("p1", "P1", Continue(), nil)),
			},
			wantRan: []string{"a", "p1"},
			wantOut: RequeueAfter(10 * time.Second),
		},
		{
			name: "the shortest requeue wins across proceed and stop",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", ProceedAndRequeueAfter(30*time.Second), nil),
				step("b", "B", RequeueAfter(time.Minute), nil),
				step("c", "C", Continue(), nil),
			},
			wantRan: []string{"a", "b"},
			wantOut: RequeueAfter(30 * time.Second),
		},
		{
			name: "an error after proceed keeps the pending requeue",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", ProceedAndRequeueAfter(10*time.Second), nil),
				step("b", "B", Continue(), errBoom),
			},
			wantRan:   []string{"a", "b"},
			wantOut:   RequeueAfter(10 * time.Second),
			wantErrIn: "b: boom",
		},
		{
			name: "sequential requeue skips a later parallel group",
			steps: []Step[reconciler, *fakeScope]{
				step("a", "A", RequeueAfter(time.Second), nil),
				Parallel(step("p1", "P1", Continue(), nil)),
			},
			wantRan: []string{"a"},
			wantOut: RequeueAfter(time.Second),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScope()
			out, err := New(nil, tt.steps...).Run(context.Background(), reconciler{}, s)
			if tt.wantErrIn == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if tt.wantErrIn != "" {
				if err == nil || err.Error() != tt.wantErrIn || !errors.Is(err, errBoom) {
					t.Fatalf("error = %v, want %q wrapping errBoom", err, tt.wantErrIn)
				}
			}
			if out != tt.wantOut {
				t.Errorf("outcome = %+v, want %+v", out, tt.wantOut)
			}
			if !slices.Equal(s.rec.ran, tt.wantRan) {
				t.Errorf("ran = %v, want %v", s.rec.ran, tt.wantRan)
			}
		})
	}
}

func TestRun_SequentialStepsShareTheScope(t *testing.T) {
	s := newScope()
	_, err := New(nil, step("a", "A", Continue(), nil), step("b", "B", Continue(), nil)).Run(context.Background(), reconciler{}, s)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.rec.seen["b"]; got != "mutated by a" {
		t.Errorf("step b saw %q, want the value step a wrote", got)
	}
	if s.cr.Value != "mutated by b" {
		t.Errorf("CR value = %q, want mutated by b", s.cr.Value)
	}
}

func TestRun_Parallel(t *testing.T) {
	tests := []struct {
		name      string
		members   []Step[reconciler, *fakeScope]
		wantOut   Outcome
		wantErrIn []string
		wantErrs  int
	}{
		{
			name:    "all continue",
			members: []Step[reconciler, *fakeScope]{step("p1", "P1", Continue(), nil), step("p2", "P2", Continue(), nil)},
		},
		{
			name: "shortest non-zero requeue wins",
			members: []Step[reconciler, *fakeScope]{
				step("p1", "P1", RequeueAfter(30*time.Second), nil),
				step("p2", "P2", Continue(), nil),
				step("p3", "P3", RequeueAfter(10*time.Second), nil),
				step("p4", "P4", RequeueAfter(15*time.Second), nil),
			},
			wantOut: RequeueAfter(10 * time.Second),
		},
		{
			name: "errors are joined and name their members",
			members: []Step[reconciler, *fakeScope]{
				step("p1", "P1", Continue(), errBoom),
				step("p2", "P2", RequeueAfter(10*time.Second), nil),
				step("p3", "P3", Continue(), errBoom),
			},
			wantOut:   RequeueAfter(10 * time.Second),
			wantErrIn: []string{"p1: boom", "p3: boom"},
			wantErrs:  2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScope()
			out, err := New(nil, step("seq", "Seq", Continue(), nil), Parallel(tt.members...)).Run(context.Background(), reconciler{}, s)
			if out != tt.wantOut {
				t.Errorf("outcome = %+v, want %+v", out, tt.wantOut)
			}
			if len(tt.wantErrIn) == 0 && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if len(tt.wantErrIn) > 0 {
				if err == nil || !errors.Is(err, errBoom) {
					t.Fatalf("error = %v, want joined errors wrapping errBoom", err)
				}
				for _, want := range tt.wantErrIn {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
				if j, ok := err.(interface{ Unwrap() []error }); !ok || len(j.Unwrap()) != tt.wantErrs {
					t.Errorf("error %v is not a join of %d errors", err, tt.wantErrs)
				}
			}

			var wantRan []string
			wantConds := []string{"Seq"}
			for _, m := range tt.members {
				wantRan = append(wantRan, m.Name)
				wantConds = append(wantConds, m.Condition)
			}
			wantRan = append(wantRan, "seq")
			slices.Sort(wantRan)
			if got := s.rec.ranSorted(); !slices.Equal(got, wantRan) {
				t.Errorf("ran = %v, want %v", got, wantRan)
			}
			if *s.forks != len(tt.members) {
				t.Errorf("Fork called %d times, want one per member (%d)", *s.forks, len(tt.members))
			}
			// Members work on forks: none sees another's write, the parent keeps its own.
			for _, m := range tt.members {
				if got := s.rec.seen[m.Name]; got != "mutated by seq" {
					t.Errorf("member %s saw CR value %q, want the parent's %q", m.Name, got, "mutated by seq")
				}
			}
			if s.cr.Value != "mutated by seq" {
				t.Errorf("parent CR value = %q, a member's fork leaked into it", s.cr.Value)
			}
			// Each member's condition is merged back, in member order.
			var gotConds []string
			for _, c := range s.cr.Conditions {
				gotConds = append(gotConds, c.Type)
			}
			if !slices.Equal(gotConds, wantConds) {
				t.Errorf("conditions = %v, want %v", gotConds, wantConds)
			}
		})
	}
}

func TestRun_ParallelMergesOnlyTheMembersCondition(t *testing.T) {
	stray := Step[reconciler, *fakeScope]{Name: "p1", Condition: "P1", Run: func(_ reconciler, _ context.Context, s *fakeScope) (Outcome, error) {
		meta.SetStatusCondition(s.Conditions(), metav1.Condition{Type: "P1", Status: metav1.ConditionFalse, Reason: "Waiting"})
		meta.SetStatusCondition(s.Conditions(), metav1.Condition{Type: "Stray", Status: metav1.ConditionTrue, Reason: "Stray"})
		// Overwrites the parent's Existing condition on the fork only.
		meta.SetStatusCondition(s.Conditions(), metav1.Condition{Type: "Existing", Status: metav1.ConditionFalse, Reason: "Changed"})
		return Continue(), nil
	}}
	s := newScope()
	meta.SetStatusCondition(&s.cr.Conditions, metav1.Condition{Type: "Existing", Status: metav1.ConditionTrue, Reason: "Kept"})
	if _, err := New(nil, Parallel(stray)).Run(context.Background(), reconciler{}, s); err != nil {
		t.Fatal(err)
	}
	if c := meta.FindStatusCondition(s.cr.Conditions, "P1"); c == nil || c.Status != metav1.ConditionFalse || c.Reason != "Waiting" {
		t.Errorf("P1 = %+v, want the member's False/Waiting", c)
	}
	if c := meta.FindStatusCondition(s.cr.Conditions, "Stray"); c != nil {
		t.Errorf("Stray condition merged back: %+v", c)
	}
	if c := meta.FindStatusCondition(s.cr.Conditions, "Existing"); c == nil || c.Reason != "Kept" {
		t.Errorf("Existing = %+v, want the parent's untouched Kept", c)
	}
}

func TestConditionsAndStepNames(t *testing.T) {
	tests := []struct {
		name      string
		steps     []Step[reconciler, *fakeScope]
		wantConds []string
		wantNames []string
	}{
		{name: "empty"},
		{
			name: "dedup in table order, empty condition skipped, parallel flattened",
			steps: []Step[reconciler, *fakeScope]{
				step("secrets", "SecretsReady", Continue(), nil),
				step("dsn", "SecretsReady", Continue(), nil),
				step("finalizer", "", Continue(), nil),
				step("database", "DatabaseReady", Continue(), nil),
				Parallel(
					step("probe", "APIReady", Continue(), nil),
					step("hpa", "HPAReady", Continue(), nil),
					step("db-again", "DatabaseReady", Continue(), nil),
				),
				step("route", "HTTPRouteReady", Continue(), nil),
			},
			wantConds: []string{"SecretsReady", "DatabaseReady", "APIReady", "HPAReady", "HTTPRouteReady"},
			wantNames: []string{"secrets", "dsn", "finalizer", "database", "probe", "hpa", "db-again", "route"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(nil, tt.steps...)
			if got := p.Conditions(); !slices.Equal(got, tt.wantConds) {
				t.Errorf("Conditions() = %v, want %v", got, tt.wantConds)
			}
			if got := p.StepNames(); !slices.Equal(got, tt.wantNames) {
				t.Errorf("StepNames() = %v, want %v", got, tt.wantNames)
			}
		})
	}
}

// histogramCounts returns the observation count per sub_reconciler label.
func histogramCounts(t *testing.T, reg *prometheus.Registry, name string) map[string]uint64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "sub_reconciler" {
					out[l.GetValue()] = m.GetHistogram().GetSampleCount()
				}
			}
		}
	}
	return out
}

func TestRun_Metrics(t *testing.T) {
	m := metrics.New("test_operator", "test")
	reg := prometheus.NewPedanticRegistry()
	m.Register(reg)
	p := New(m,
		step("secrets", "SecretsReady", Continue(), nil),
		Parallel(
			step("probe", "APIReady", Continue(), errBoom),
			step("hpa", "", Continue(), errBoom),
			step("netpol", "NetworkPolicyReady", Continue(), nil),
		),
		step("never", "Never", Continue(), nil),
	)
	const passes = 2
	for range passes {
		if _, err := p.Run(context.Background(), reconciler{}, newScope()); err == nil {
			t.Fatal("want the members' errors")
		}
	}

	got := histogramCounts(t, reg, "test_operator_reconcile_duration_seconds")
	want := map[string]uint64{"secrets": passes, "probe": passes, "hpa": passes, "netpol": passes}
	if len(got) != len(want) {
		t.Errorf("duration series = %v, want %v (no parallel group or skipped step series)", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("duration observations of %s = %d, want %d", k, got[k], v)
		}
	}

	if n := testutil.CollectAndCount(m.Errors); n != 2 {
		t.Errorf("error series = %d, want 2 (only failing steps)", n)
	}
	for _, lv := range [][2]string{{"probe", "APIReady"}, {"hpa", metrics.UnknownCondition}} {
		if v := testutil.ToFloat64(m.Errors.WithLabelValues(lv[0], lv[1])); v != passes {
			t.Errorf("errors_total{%s,%s} = %v, want %d", lv[0], lv[1], v, passes)
		}
	}
}

func TestDiagram(t *testing.T) {
	p := New(nil,
		step("Secrets", "SecretsReady", Continue(), nil),
		step("Deployment", "DeploymentReady", Continue(), nil),
		Parallel(step("HTTPRoute", "HTTPRouteReady", Continue(), nil), step("HPA", "HPAReady", Continue(), nil), step("NetworkPolicy", "NetworkPolicyReady", Continue(), nil)),
	)
	want := "Secrets ─► Deployment ─► ┬ HTTPRoute\n" +
		"                         ├ HPA\n" +
		"                         └ NetworkPolicy  (parallel)\n"
	if got := p.Diagram(); got != want {
		t.Errorf("Diagram:\n%s\nwant:\n%s", got, want)
	}
}
