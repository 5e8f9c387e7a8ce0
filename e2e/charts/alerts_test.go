package charts

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	common "github.com/c5c3/openstack-operators/common/lib/observability"
	"github.com/c5c3/openstack-operators/e2e/observability"
)

// promtool's unit-test file (promtool test rules).
type ruleTests struct {
	RuleFiles          []string   `json:"rule_files"`
	EvaluationInterval string     `json:"evaluation_interval"`
	Tests              []ruleTest `json:"tests"`
}

type ruleTest struct {
	Name          string      `json:"name"`
	Interval      string      `json:"interval"`
	InputSeries   []series    `json:"input_series"`
	AlertRuleTest []alertTest `json:"alert_rule_test"`
}

type series struct {
	Series string `json:"series"`
	Values string `json:"values"`
}

type alertTest struct {
	EvalTime  string          `json:"eval_time"`
	Alertname string          `json:"alertname"`
	ExpAlerts []expectedAlert `json:"exp_alerts"`
}

type expectedAlert struct {
	ExpLabels      map[string]string `json:"exp_labels"`
	ExpAnnotations map[string]string `json:"exp_annotations"`
}

var labelRef = regexp.MustCompile(`\{\{\s*\$labels\.(\w+)\s*\}\}`)

// firing is the alert rule fires with labels: its own, the series' and its
// severity, the annotations expanded as Prometheus does for $labels.
func firing(t *testing.T, r common.Rule, labels map[string]string) []expectedAlert {
	t.Helper()
	all := map[string]string{"severity": r.Severity}
	for k, v := range labels {
		all[k] = v
	}
	expand := func(s string) string {
		if strings.Contains(s, "$value") {
			t.Fatalf("alert %s: annotations may use $labels only: %q", r.Alert, s)
		}
		return labelRef.ReplaceAllStringFunc(s, func(m string) string { return labels[labelRef.FindStringSubmatch(m)[1]] })
	}
	return []expectedAlert{{ExpLabels: all, ExpAnnotations: map[string]string{"summary": expand(r.Summary), "description": expand(r.Description)}}}
}

func rule(t *testing.T, s common.Spec, alert string) common.Rule {
	t.Helper()
	for _, r := range s.Alerts() {
		if r.Alert == alert {
			return r
		}
	}
	t.Fatalf("no alert %s", alert)
	return common.Rule{}
}

// sel renders a series selector.
func sel(metric string, labels map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, k+`="`+labels[k]+`"`)
	}
	return metric + "{" + strings.Join(parts, ",") + "}"
}

// scenarios are the alert tests of an operator's rule file: each alert
// stays quiet before its condition held long enough and fires after,
// with the labels and text a receiver gets.
func scenarios(t *testing.T, s common.Spec) []ruleTest {
	t.Helper()
	p, cr := s.Prefix, s.KindLabel
	crLabels := map[string]string{cr: "one", "namespace": "openstack"}
	notReady := rule(t, s, s.NotReadyAlert())
	errs := map[string]string{"sub_reconciler": "Secrets", "condition_type": "SecretsReady"}
	probe := map[string]string{"result": "failed", "reason": "ConnectionFailed"}
	out := []ruleTest{{
		Name: "a CR not Ready for longer than " + notReady.For, Interval: "1m",
		InputSeries: []series{
			{Series: sel(p+"_ready", crLabels), Values: "0x40"},
			{Series: sel(p+"_ready", map[string]string{cr: "two", "namespace": "openstack"}), Values: "1x40"},
		},
		AlertRuleTest: []alertTest{
			{EvalTime: "10m", Alertname: notReady.Alert},
			{EvalTime: "20m", Alertname: notReady.Alert, ExpAlerts: firing(t, notReady, crLabels)},
		},
	}, {
		Name: "lasting reconcile errors", Interval: "1m",
		InputSeries: []series{{Series: sel(p+"_reconcile_errors_total", errs), Values: "0+2x40"}},
		AlertRuleTest: []alertTest{
			{EvalTime: "10m", Alertname: s.ReconcileErrorsAlert()},
			{EvalTime: "30m", Alertname: s.ReconcileErrorsAlert(), ExpAlerts: firing(t, rule(t, s, s.ReconcileErrorsAlert()), errs)},
		},
	}, {
		Name: "failing probes, not passing ones", Interval: "1m",
		InputSeries: []series{
			{Series: sel(p+"_health_probes_total", probe), Values: "0+1x40"},
			{Series: sel(p+"_health_probes_total", map[string]string{"result": "succeeded", "reason": "APIHealthy"}), Values: "0+5x40"},
		},
		AlertRuleTest: []alertTest{
			{EvalTime: "5m", Alertname: s.ProbeFailuresAlert()},
			{EvalTime: "25m", Alertname: s.ProbeFailuresAlert(),
				ExpAlerts: firing(t, rule(t, s, s.ProbeFailuresAlert()), map[string]string{"reason": "ConnectionFailed"})},
		},
	}}
	for _, j := range s.Jobs {
		r := rule(t, s, j.Alert)
		failed := map[string]string{cr: "one", "namespace": "openstack", "result": "failed"}
		// The series appears at the first failure (already 1), a second
		// failure follows after two hours; succeeded Jobs never alert.
		out = append(out, ruleTest{
			Name: j.Alert + ": the first failure and a later one", Interval: "5m",
			InputSeries: []series{
				{Series: sel(p+"_"+j.Metric+"_total", failed), Values: "_x2 1x24 2x12"},
				{Series: sel(p+"_"+j.Metric+"_total", map[string]string{cr: "two", "namespace": "openstack", "result": "succeeded"}), Values: "1+1x40"},
			},
			AlertRuleTest: []alertTest{
				{EvalTime: "5m", Alertname: j.Alert},
				{EvalTime: "15m", Alertname: j.Alert, ExpAlerts: firing(t, r, crLabels)},
				{EvalTime: "100m", Alertname: j.Alert},
				{EvalTime: "140m", Alertname: j.Alert, ExpAlerts: firing(t, r, crLabels)},
				{EvalTime: "200m", Alertname: j.Alert},
			},
		})
	}
	return out
}

// remintScenario: a store whose secret ID is re-minted only after
// rejections alerts; one re-minted on schedule with a rare rejection does not.
func remintScenario(t *testing.T, s common.Spec) ruleTest {
	t.Helper()
	const alert = "BarbicanSecretIDRemintsReactive"
	m := s.Prefix + "_secretstore_remints_total"
	late := map[string]string{"store": "late", "namespace": "openstack"}
	on := map[string]string{"store": "on-time", "namespace": "openstack"}
	with := func(l map[string]string, trigger string) map[string]string {
		out := map[string]string{"trigger": trigger}
		for k, v := range l {
			out[k] = v
		}
		return out
	}
	return ruleTest{
		Name: "reactive re-mints outpacing proactive ones", Interval: "5m",
		InputSeries: []series{
			{Series: sel(m, with(late, "reactive")), Values: "_x2 1+1x20"},
			{Series: sel(m, with(on, "proactive")), Values: "_x2 1+1x20"},
			{Series: sel(m, with(on, "reactive")), Values: "_x2 1x20"},
		},
		AlertRuleTest: []alertTest{
			{EvalTime: "20m", Alertname: alert},
			{EvalTime: "60m", Alertname: alert, ExpAlerts: firing(t, rule(t, s, alert), late)},
		},
	}
}

// promtool runs each operator's alert scenarios against its chart's rule
// file: thresholds, "for" durations, labels and the receiver's text.
func TestObservabilityAlertsFire(t *testing.T) {
	eachObservability(t, func(t *testing.T, c chart, op observability.Operator) {
		s := op.Spec()
		tests := scenarios(t, s)
		if c.name == "barbican-operator" {
			tests = append(tests, remintScenario(t, s))
		}
		f := ruleTests{
			RuleFiles:          []string{filepath.Join(repoRoot(t), "charts", c.name, "files", observability.RulesFile)},
			EvaluationInterval: "1m", Tests: tests,
		}
		b, err := yaml.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "tests.yaml")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out := promtool(t, "test", "rules", path)
		if !strings.Contains(out, "SUCCESS") {
			t.Errorf("promtool test rules: %s", out)
		}
		t.Logf("%d alert scenarios passed", len(tests))
	})
}
