package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is one run: every scenario, the micro-benchmarks and, once
// compared, the verdicts.
type Report struct {
	Operator          string            `json:"operator"`
	Mode              string            `json:"mode"`
	Started           string            `json:"started"`
	Machine           Machine           `json:"machine"`
	SyncPeriodSeconds float64           `json:"resync_period_seconds"`
	Scenarios         []*ScenarioResult `json:"scenarios"`
	Micro             []MicroResult     `json:"micro,omitempty"`
	Verdicts          []Verdict         `json:"verdicts,omitempty"`
}

// WriteJSON stores the report.
func (r *Report) WriteJSON(path string) error {
	raw, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}

// printer writes formatted text and keeps the first error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// table is a right-aligned tabwriter over the printer.
func (p *printer) table() *tabwriter.Writer {
	return tabwriter.NewWriter(p.w, 0, 0, 2, ' ', tabwriter.AlignRight)
}

// flush flushes a table and keeps the first error of the table's printer
// or of the flush.
func (p *printer) flush(tw *tabwriter.Writer, rows *printer) {
	err := rows.err
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	if p.err == nil {
		p.err = err
	}
}

// Print writes the human-readable table.
func (r *Report) Print(w io.Writer) error {
	out := &printer{w: w}
	r.printMain(out)
	r.printRequests(out)
	r.printLatency(out)
	r.printMemory(out)
	r.printMicro(out)
	r.printVerdicts(out)
	return out.err
}

func (r *Report) printMain(out *printer) {
	m := r.Machine
	out.printf("%s operator benchmark (%s) on %d CPUs %s, %d MiB, %s, load %.2f at start\n\n",
		r.Operator, r.Mode, m.CPUs, m.CPUModel, m.MemoryMiB, m.GoVersion, m.LoadAverage)
	tw := out.table()
	w := &printer{w: tw}
	head := "\t"
	for _, s := range r.Scenarios {
		head += fmt.Sprintf("N=%d\t", s.N)
	}
	row := func(name string, f func(*ScenarioResult) string) {
		line := "  " + name + "\t"
		for _, s := range r.Scenarios {
			line += f(s) + "\t"
		}
		w.printf("%s\n", line)
	}
	num := func(format string, f func(*ScenarioResult) float64) func(*ScenarioResult) string {
		return func(s *ScenarioResult) string { return fmt.Sprintf(format, f(s)) }
	}
	section := func(title string) { w.printf("%s\n", title+head) }

	section("Convergence: create N CRs → all Ready")
	row("wall time s", num("%.1f", func(s *ScenarioResult) float64 { return s.Convergence.WallSeconds }))
	row("operator CPU s", num("%.2f", func(s *ScenarioResult) float64 { return s.Convergence.OperatorCPUSeconds }))
	row("kube-apiserver+etcd CPU s", num("%.2f", func(s *ScenarioResult) float64 { return s.Convergence.ControlPlaneCPUSeconds }))
	row("harness+stand-ins CPU s", num("%.2f", func(s *ScenarioResult) float64 { return s.Convergence.HarnessCPUSeconds }))
	row("passes per CR", num("%.2f", func(s *ScenarioResult) float64 { return s.Convergence.PassesPerCR }))
	row("operator requests per CR", num("%.1f", func(s *ScenarioResult) float64 { return s.Convergence.Requests.Total() / float64(s.N) }))
	row("operator writes per CR", num("%.1f", func(s *ScenarioResult) float64 { return s.Convergence.MutatingRequests / float64(s.N) }))
	for _, ph := range []struct {
		title string
		get   func(*ScenarioResult) *Phase
	}{
		{"Steady state: full resync (operator restart) + 1 unrelated Secret update per CR", func(s *ScenarioResult) *Phase { return &s.SteadyState }},
		{fmt.Sprintf("Periodic resync every %.0fs, over ≥1 resync of every informer", r.SyncPeriodSeconds), func(s *ScenarioResult) *Phase { return s.Resync }},
	} {
		opt := func(format string, f func(*Phase) float64) func(*ScenarioResult) string {
			return func(s *ScenarioResult) string {
				if p := ph.get(s); p != nil {
					return fmt.Sprintf(format, f(p))
				}
				return "-"
			}
		}
		section(ph.title)
		row("passes per CR", opt("%.2f", func(p *Phase) float64 { return p.PassesPerCR }))
		row("operator requests (no watches)", opt("%.0f", func(p *Phase) float64 { return p.Requests.Total() }))
		row("operator mutating requests", opt("%.0f", func(p *Phase) float64 { return p.MutatingRequests }))
		row("resourceVersion changes", opt("%.0f", func(p *Phase) float64 { return float64(len(p.ResourceVersionChanges)) }))
		row("operator CPU s", opt("%.2f", func(p *Phase) float64 { return p.OperatorCPUSeconds }))
	}
	rot := func(f func(*Rotation) float64) func(*ScenarioResult) string {
		return func(s *ScenarioResult) string {
			if s.Rotation == nil {
				return "-"
			}
			return fmt.Sprintf("%.2f", f(s.Rotation))
		}
	}
	section("One credential change per CR")
	row("to rolled Deployment p50 s", rot(func(r *Rotation) float64 { return r.RolledP50Seconds }))
	row("to rolled Deployment p95 s", rot(func(r *Rotation) float64 { return r.RolledP95Seconds }))
	row("to rolled Deployment max s", rot(func(r *Rotation) float64 { return r.RolledMaxSeconds }))
	row("operator writes per CR", rot(func(r *Rotation) float64 { return r.WritesPerCR }))
	row("passes per CR", rot(func(r *Rotation) float64 { return r.PassesPerCR }))
	out.flush(tw, w)
}

// printRequests breaks the operator's requests down by verb and resource.
func (r *Report) printRequests(out *printer) {
	for _, s := range r.Scenarios {
		type named struct {
			name string
			ph   *Phase
		}
		phases := []named{{"convergence", &s.Convergence}, {"steady", &s.SteadyState}}
		if s.Rotation != nil {
			phases = append(phases, named{"rotation", &s.Rotation.Phase})
		}
		if s.Resync != nil {
			phases = append(phases, named{"resync", s.Resync})
		}
		keys := map[string]bool{}
		for _, p := range phases {
			for k := range p.ph.Requests {
				keys[k] = true
			}
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		out.printf("\nOperator requests by verb and resource, N=%d (counted at the API server)\n", s.N)
		tw := out.table()
		w := &printer{w: tw}
		line := "\t"
		for _, p := range phases {
			line += p.name + "\t"
		}
		w.printf("%s\n", line)
		for _, k := range sorted {
			line := "  " + k + "\t"
			for _, p := range phases {
				line += fmt.Sprintf("%.0f\t", p.ph.Requests[k])
			}
			w.printf("%s\n", line)
		}
		out.flush(tw, w)
		for _, p := range phases {
			if len(p.ph.ResourceVersionChanges) > 0 {
				out.printf("  %s changed: %s\n", p.name, strings.Join(firstN(p.ph.ResourceVersionChanges, 10), ", "))
			}
		}
	}
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}

// printLatency prints p50/p95/p99 of every histogram during convergence.
func (r *Report) printLatency(out *printer) {
	series := map[string]bool{}
	for _, s := range r.Scenarios {
		for k := range s.Convergence.Latency {
			series[k] = true
		}
	}
	names := make([]string, 0, len(series))
	for k := range series {
		names = append(names, k)
	}
	sort.Strings(names)
	out.printf("\nLatency during convergence, p50/p95/p99 in ms (histogram_quantile)\n")
	tw := out.table()
	w := &printer{w: tw}
	head := "\t"
	for _, s := range r.Scenarios {
		head += fmt.Sprintf("N=%d\t", s.N)
	}
	w.printf("%s\n", head)
	for _, name := range names {
		line := "  " + name + "\t"
		for _, s := range r.Scenarios {
			q, ok := s.Convergence.Latency[name]
			if !ok {
				line += "-\t"
				continue
			}
			line += fmt.Sprintf("%.0f/%.0f/%.0f\t", q.P50*1000, q.P95*1000, q.P99*1000)
		}
		w.printf("%s\n", line)
	}
	out.flush(tw, w)
}

func (r *Report) printMemory(out *printer) {
	for _, s := range r.Scenarios {
		m := s.Memory
		if m == nil {
			continue
		}
		out.printf("\nOperator memory with %d CRs, MiB (after GC)\n", m.CRs)
		tw := out.table()
		w := &printer{w: tw}
		w.printf("\theap in use\tRSS\t\n")
		w.printf("  without unrelated objects\t%.1f\t%.1f\t\n", mib(m.Without.HeapInuseBytes), mib(m.Without.RSSBytes))
		w.printf("  with %d Secrets + %d ConfigMaps\t%.1f\t%.1f\t\n", m.UnrelatedSecrets, m.UnrelatedConfigMaps, mib(m.With.HeapInuseBytes), mib(m.With.RSSBytes))
		w.printf("  growth\t%+.1f\t%+.1f\t\n", mib(m.With.HeapInuseBytes)-mib(m.Without.HeapInuseBytes), mib(m.With.RSSBytes)-mib(m.Without.RSSBytes))
		out.flush(tw, w)
		out.printf("  Secrets in the operator's cache afterwards (metadata only): %d\n", m.CachedSecrets)
	}
}

func (r *Report) printMicro(out *printer) {
	if len(r.Micro) == 0 {
		return
	}
	out.printf("\nMicro-benchmarks (go test -bench, fastest of the runs)\n")
	tw := out.table()
	w := &printer{w: tw}
	w.printf("\tns/op\tB/op\tallocs/op\t\n")
	for _, m := range r.Micro {
		w.printf("  %s\t%.0f\t%.0f\t%.0f\t\n", m.Name, m.NsPerOp, m.BytesPerOp, m.AllocsPerOp)
	}
	out.flush(tw, w)
}

func (r *Report) printVerdicts(out *printer) {
	if r.Verdicts == nil {
		return
	}
	var bad []Verdict
	for _, v := range r.Verdicts {
		if v.Regressed {
			bad = append(bad, v)
		}
	}
	out.printf("\nBaseline: %d figures compared, %d regressed\n", len(r.Verdicts), len(bad))
	for _, v := range bad {
		out.printf("  REGRESSED %s = %.4g, baseline %.4g, limit %.4g\n", v.Name, v.Value, v.Baseline, v.Limit)
	}
}

// Regressed reports whether any compared figure regressed.
func (r *Report) Regressed() bool {
	for _, v := range r.Verdicts {
		if v.Regressed {
			return true
		}
	}
	return false
}
