package observability

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

var testSpec = Spec{
	Prefix: "glance_operator", KindLabel: "glance", Kind: "Glance",
	Jobs: []Job{
		{Metric: "db_sync", Title: "db-sync", Alert: "GlanceDBSyncJobFailed", Runbook: "Read its log."},
		{Metric: "db_purge", Title: "DBPurge", Alert: "GlanceDBPurgeFailed", Runbook: "Read its log."},
	},
	Rules:  []Rule{{Alert: "Extra", Expr: "glance_operator_extra > 0", Severity: "info"}},
	Panels: []Panel{{Title: "Extra", Targets: []Target{{Expr: "glance_operator_extra"}}}},
}

// Every expression of both artefacts reads the operator's own metrics, and
// each artefact holds the shared parts, the Job parts and the extras.
func TestArtefactsReadTheOperatorsMetrics(t *testing.T) {
	dash, err := testSpec.DashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := testSpec.RuleFileYAML()
	if err != nil {
		t.Fatal(err)
	}
	dexprs, err := DashboardExprs(dash)
	if err != nil {
		t.Fatal(err)
	}
	rexprs, err := RuleExprs(rules)
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, e := range append(dexprs, rexprs...) {
		names := MetricNames(e)
		if len(names) == 0 {
			t.Errorf("%q selects no metric", e)
		}
		for _, n := range names {
			if !strings.HasPrefix(n, "glance_operator_") {
				t.Errorf("%q reads %s, not one of the operator's", e, n)
			}
		}
		used = append(used, names...)
	}
	for _, want := range []string{
		"glance_operator_ready", "glance_operator_reconcile_errors_total", "glance_operator_reconcile_duration_seconds_bucket",
		"glance_operator_health_probes_total", "glance_operator_build_info", "glance_operator_db_sync_total",
		"glance_operator_db_purge_total", "glance_operator_db_purge_duration_seconds_bucket", "glance_operator_extra",
	} {
		if !slices.Contains(used, want) {
			t.Errorf("no expression reads %s", want)
		}
	}
	if !strings.Contains(string(rules), "alert: GlanceDBPurgeFailed") || !strings.Contains(string(rules), "alert: Extra") {
		t.Errorf("rule file lacks the Job or the extra alert:\n%s", rules)
	}
}

// Panels are laid out two a row without overlapping, with unique ids and
// the data source variable.
func TestDashboardLayout(t *testing.T) {
	b, err := testSpec.DashboardJSON()
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if want := len(testSpec.DashboardPanels()); len(d.Panels) != want || want != 6+2*2+1 {
		t.Fatalf("%d panels, want %d", len(d.Panels), want)
	}
	seen := map[[2]int]bool{}
	for i, p := range d.Panels {
		pos := [2]int{p.GridPos["x"], p.GridPos["y"]}
		if seen[pos] || p.ID != i+1 || p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %d %q: position %v taken or id %d or data source %v", i, p.Title, pos, p.ID, p.Datasource)
		}
		seen[pos] = true
	}
	if d.UID != "glance-operator" {
		t.Errorf("uid = %q", d.UID)
	}
}

func TestDashboardExprsRefusesAnUnknownVariable(t *testing.T) {
	b := []byte(`{"templating":{"list":[{"name":"x","type":"query","definition":"query_result(up)"}]}}`)
	if _, err := DashboardExprs(b); err == nil {
		t.Error("a query variable that is not label_values was accepted")
	}
}
