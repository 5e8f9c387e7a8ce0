package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
)

// Figure is one compared number. Higher is worse for every figure.
type Figure struct {
	Name  string
	Value float64
	// Rule names the tolerance the figure is compared with.
	Rule string
}

// Tolerance is how far a figure may exceed its baseline: a regression is
// value > baseline × Factor + Slack.
type Tolerance struct {
	Factor float64 `json:"factor"`
	Slack  float64 `json:"slack"`
	// Smoke rules are also compared by the smoke run; the others vary with
	// the machine's load too much for a short run.
	Smoke bool `json:"smoke,omitempty"`
}

// DefaultTolerances are written into a new baseline; the committed file
// is the authority.
var DefaultTolerances = map[string]Tolerance{
	"time":         {Factor: 1.5, Slack: 2},    // seconds
	"cpu":          {Factor: 1.5, Slack: 1},    // CPU seconds
	"latency":      {Factor: 2, Slack: 0.05},   // seconds, histogram quantiles
	"passes":       {Factor: 1.25, Slack: 0.5}, // passes per CR
	"requests":     {Factor: 1.25, Slack: 2},   // operator requests per CR or per pass
	"zero":         {Factor: 1, Slack: 0, Smoke: true},
	"writes":       {Factor: 1, Slack: 0.5}, // writes per CR
	"memory":       {Factor: 1, Slack: 16},  // MiB
	"growth":       {Factor: 1, Slack: 4},   // MiB grown by unrelated objects
	"micro-time":   {Factor: 1.5, Slack: 0},
	"micro-allocs": {Factor: 1.1, Slack: 1},
	"micro-bytes":  {Factor: 1.1, Slack: 64},
}

// Baseline is the committed reference: the figures of a full run, the
// machine they came from and the tolerances.
type Baseline struct {
	Operator   string               `json:"operator"`
	Recorded   string               `json:"recorded"`
	Machine    Machine              `json:"machine"`
	Tolerances map[string]Tolerance `json:"tolerances"`
	// Figures are name -> value; Rules name -> tolerance rule.
	Figures map[string]float64 `json:"figures"`
	Rules   map[string]string  `json:"rules"`
}

// NewBaseline records a report's figures with the given tolerances.
func NewBaseline(r *Report, tolerances map[string]Tolerance) *Baseline {
	b := &Baseline{Operator: r.Operator, Recorded: r.Started, Machine: r.Machine, Tolerances: tolerances,
		Figures: map[string]float64{}, Rules: map[string]string{}}
	for _, f := range r.Figures() {
		b.Figures[f.Name] = math.Round(f.Value*1e4) / 1e4
		b.Rules[f.Name] = f.Rule
	}
	return b
}

// LoadBaseline reads a baseline file.
func LoadBaseline(path string) (*Baseline, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b Baseline
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("reading baseline %s: %w", path, err)
	}
	return &b, nil
}

// Write stores the baseline as indented JSON.
func (b *Baseline) Write(path string) error {
	raw, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}

// Verdict is one figure compared with its baseline.
type Verdict struct {
	Name      string  `json:"name"`
	Value     float64 `json:"value"`
	Baseline  float64 `json:"baseline"`
	Limit     float64 `json:"limit"`
	Regressed bool    `json:"regressed"`
}

// Compare checks every figure the baseline and the report share; smoke
// compares only the rules marked Smoke. Figures absent from either side are
// skipped.
func (b *Baseline) Compare(r *Report, smoke bool) []Verdict {
	var out []Verdict
	for _, f := range r.Figures() {
		base, ok := b.Figures[f.Name]
		if !ok {
			continue
		}
		rule := b.Rules[f.Name]
		if rule == "" {
			rule = f.Rule
		}
		tol, ok := b.Tolerances[rule]
		if !ok {
			tol = DefaultTolerances[rule]
		}
		if smoke && !tol.Smoke {
			continue
		}
		limit := base*tol.Factor + tol.Slack
		out = append(out, Verdict{Name: f.Name, Value: f.Value, Baseline: base, Limit: limit, Regressed: f.Value > limit+1e-9})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Figures flattens the report into the compared numbers.
func (r *Report) Figures() []Figure {
	var out []Figure
	add := func(name string, v float64, rule string) { out = append(out, Figure{Name: name, Value: v, Rule: rule}) }
	for _, s := range r.Scenarios {
		p := fmt.Sprintf("n%d.", s.N)
		c := s.Convergence
		add(p+"convergence.wall_seconds", c.WallSeconds, "time")
		add(p+"convergence.operator_cpu_seconds", c.OperatorCPUSeconds, "cpu")
		add(p+"convergence.control_plane_cpu_seconds", c.ControlPlaneCPUSeconds, "cpu")
		add(p+"convergence.passes_per_cr", c.PassesPerCR, "passes")
		for _, name := range []string{"reconcile (controller-runtime)"} {
			if q, ok := c.Latency[name]; ok {
				add(p+"convergence.latency."+slug(name)+".p95_seconds", q.P95, "latency")
			}
		}
		st := s.SteadyState
		add(p+"steady_state.operator_mutating_requests", st.MutatingRequests, "zero")
		add(p+"steady_state.resource_version_changes", float64(len(st.ResourceVersionChanges)), "zero")
		add(p+"steady_state.operator_requests_per_cr", st.Requests.Total()/float64(s.N), "requests")
		if rs := s.Resync; rs != nil {
			add(p+"periodic_resync.operator_mutating_requests", rs.MutatingRequests, "zero")
			add(p+"periodic_resync.resource_version_changes", float64(len(rs.ResourceVersionChanges)), "zero")
			add(p+"periodic_resync.operator_requests_per_pass", rs.Requests.Total()/max(rs.Passes, 1), "requests")
		}
		if rot := s.Rotation; rot != nil {
			add(p+"rotation.rolled_p50_seconds", rot.RolledP50Seconds, "time")
			add(p+"rotation.rolled_max_seconds", rot.RolledMaxSeconds, "time")
			add(p+"rotation.writes_per_cr", rot.WritesPerCR, "writes")
		}
		if m := s.Memory; m != nil {
			add(p+"memory.heap_inuse_mib", mib(m.Without.HeapInuseBytes), "memory")
			add(p+"memory.rss_mib", mib(m.Without.RSSBytes), "memory")
			add(p+"memory.heap_growth_mib", mib(m.With.HeapInuseBytes)-mib(m.Without.HeapInuseBytes), "growth")
			add(p+"memory.rss_growth_mib", mib(m.With.RSSBytes)-mib(m.Without.RSSBytes), "growth")
		}
	}
	for _, m := range r.Micro {
		add("micro."+m.Name+".ns_per_op", m.NsPerOp, "micro-time")
		add("micro."+m.Name+".bytes_per_op", m.BytesPerOp, "micro-bytes")
		add("micro."+m.Name+".allocs_per_op", m.AllocsPerOp, "micro-allocs")
	}
	return out
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// slug makes a series name usable in a figure name.
func slug(s string) string {
	s = strings.NewReplacer("(", "", ")", "", " ", "_", "-", "_").Replace(s)
	return strings.ToLower(s)
}
