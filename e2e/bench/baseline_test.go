package bench

import (
	"path/filepath"
	"reflect"
	"testing"
)

func report(mutating, wall, heapGrowth float64) *Report {
	return &Report{Operator: "placement", Scenarios: []*ScenarioResult{{
		N:           10,
		Convergence: Phase{WallSeconds: wall, PassesPerCR: 4},
		SteadyState: Phase{MutatingRequests: mutating, ResourceVersionChanges: []string{}, Requests: Requests{"GET secrets": 30}},
		Memory:      &Memory{Without: MemorySample{HeapInuseBytes: 20 << 20}, With: MemorySample{HeapInuseBytes: uint64(20+heapGrowth) << 20}},
	}}}
}

func verdict(t *testing.T, vs []Verdict, name string) Verdict {
	t.Helper()
	for _, v := range vs {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("no verdict for %s in %+v", name, vs)
	return Verdict{}
}

func TestCompare(t *testing.T) {
	base := NewBaseline(report(0, 10, 2), DefaultTolerances)
	tests := []struct {
		name      string
		run       *Report
		smoke     bool
		figure    string
		regressed bool
	}{
		{"same figures pass", report(0, 10, 2), false, "n10.convergence.wall_seconds", false},
		{"time within ×1.5+2s", report(0, 16.9, 2), false, "n10.convergence.wall_seconds", false},
		{"time beyond ×1.5+2s", report(0, 17.1, 2), false, "n10.convergence.wall_seconds", true},
		{"one mutating request over a zero baseline", report(1, 10, 2), false, "n10.steady_state.operator_mutating_requests", true},
		{"memory growth within +4 MiB", report(0, 10, 6), false, "n10.memory.heap_growth_mib", false},
		{"memory growth beyond +4 MiB", report(0, 10, 7), false, "n10.memory.heap_growth_mib", true},
		{"smoke compares the zero targets", report(1, 100, 2), true, "n10.steady_state.operator_mutating_requests", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdict(t, base.Compare(tt.run, tt.smoke), tt.figure)
			if v.Regressed != tt.regressed {
				t.Errorf("%s: %+v, want regressed=%v", tt.figure, v, tt.regressed)
			}
		})
	}
}

func TestSmokeComparesOnlyCounts(t *testing.T) {
	base := NewBaseline(report(0, 10, 2), DefaultTolerances)
	for _, v := range base.Compare(report(0, 1000, 50), true) {
		if base.Rules[v.Name] != "zero" {
			t.Errorf("smoke compared %s (rule %s)", v.Name, base.Rules[v.Name])
		}
		if v.Regressed {
			t.Errorf("smoke flagged %s", v.Name)
		}
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	b := NewBaseline(report(0, 10, 2), DefaultTolerances)
	if err := b.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, b) {
		t.Errorf("round trip changed the baseline:\n%+v\n%+v", got, b)
	}
}
