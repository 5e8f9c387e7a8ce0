package observability

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// RuleFile is a Prometheus rule file (promtool's format and a
// PrometheusRule's spec).
type RuleFile struct {
	Groups []RuleGroup `json:"groups"`
}

// RuleGroup is one group of rules.
type RuleGroup struct {
	Name  string       `json:"name"`
	Rules []RuleRecord `json:"rules"`
}

// RuleRecord is one rule as Prometheus reads it.
type RuleRecord struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// IncreaseOrNew is, per series of the counter selector sel, its increase
// over window when positive, else its value when the series is younger
// than window: a per-CR counter appears at its first count (already 1),
// which increase() alone never sees.
func IncreaseOrNew(sel, window string) string {
	return "((increase(" + sel + "[" + window + "]) > 0) or (" + sel + " unless " + sel + " offset " + window + "))"
}

// Alerts are the operator's alerting rules: the shared ones, then its own.
// Annotations use $labels only, so they read the same for every firing.
func (s Spec) Alerts() []Rule {
	p, cr := s.Prefix, s.KindLabel
	who := fmt.Sprintf("{{ $labels.namespace }}/{{ $labels.%s }}", cr)
	out := []Rule{{
		Alert: s.NotReadyAlert(), Expr: p + "_ready == 0", For: DefaultNotReadyFor, Severity: "warning",
		Summary: s.Kind + " " + who + " is not Ready.",
		Description: s.Kind + " " + who + " has not been Ready for a while. Its Ready condition names the " +
			"sub-conditions that are not True; each carries a reason and a message (kubectl describe), and " +
			"the operator's Warning events on the CR say what it last failed at.",
	}, {
		Alert:    s.ReconcileErrorsAlert(),
		Expr:     "sum by (sub_reconciler, condition_type) (rate(" + p + "_reconcile_errors_total[10m])) > 0",
		For:      "15m",
		Severity: "warning",
		Summary:  "The " + s.Kind + " operator keeps failing in {{ $labels.sub_reconciler }}.",
		Description: "The {{ $labels.sub_reconciler }} step returned errors for 15 minutes, reported through " +
			"{{ $labels.condition_type }}. Errors are retried with backoff; a lasting rate means an input or a " +
			"permission the operator cannot mend itself. The operator's log and the condition's message name " +
			"the object and the API error.",
	}, {
		Alert:    s.ProbeFailuresAlert(),
		Expr:     "sum by (reason) (rate(" + p + "_health_probes_total{result=\"failed\"}[10m])) > 0",
		For:      "10m",
		Severity: "warning",
		Summary:  "Health probes of the " + s.Kind + " API fail ({{ $labels.reason }}).",
		Description: "The operator's probes of a " + s.Kind + " API have failed with {{ $labels.reason }} " +
			"for 10 minutes. The " + s.NotReadyAlert() + " alert names the CR; its API condition carries " +
			"the last probe's message (connection refused, timeout, HTTP status).",
	}}
	for _, j := range s.Jobs {
		failed := p + "_" + j.Metric + "_total{result=\"failed\"}"
		out = append(out, Rule{
			Alert:    j.Alert,
			Expr:     "sum by (namespace, " + cr + ") " + IncreaseOrNew(failed, "1h") + " > 0",
			Severity: "warning",
			Summary:  "A " + j.Title + " Job of " + s.Kind + " " + who + " failed.",
			Description: "A " + j.Title + " Job of " + s.Kind + " " + who + " failed in the last hour. " +
				j.Runbook + " The alert clears an hour after the last failure.",
		})
	}
	return append(out, s.Rules...)
}

// RuleFileYAML is the rule file of the operator's alerts, in one group.
func (s Spec) RuleFileYAML() ([]byte, error) {
	g := RuleGroup{Name: s.Prefix}
	for _, r := range s.Alerts() {
		g.Rules = append(g.Rules, RuleRecord{
			Alert: r.Alert, Expr: r.Expr, For: r.For,
			Labels:      map[string]string{"severity": r.Severity},
			Annotations: map[string]string{"summary": r.Summary, "description": r.Description},
		})
	}
	return yaml.Marshal(RuleFile{Groups: []RuleGroup{g}})
}

// RuleExprs returns the expression of every rule of a rule file.
func RuleExprs(b []byte) ([]string, error) {
	var f RuleFile
	if err := yaml.UnmarshalStrict(b, &f); err != nil {
		return nil, err
	}
	var out []string
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			out = append(out, r.Expr)
		}
	}
	return out, nil
}
