package observability

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// nsFilter limits per-CR series to the dashboard's namespace variable.
const nsFilter = `{namespace=~"$namespace"}`

// DashboardPanels are the operator's panels: the shared ones, then its own.
func (s Spec) DashboardPanels() []Panel {
	p, cr := s.Prefix, s.KindLabel
	who := "{{namespace}}/{{" + cr + "}}"
	out := []Panel{{
		Title: s.Kind + " CRs", Stat: true,
		Description: "CRs by their Ready condition, as of each CR's last pass.",
		Targets: []Target{
			{Expr: "sum(" + p + "_ready" + nsFilter + ")", Legend: "Ready"},
			{Expr: "count(" + p + "_ready" + nsFilter + ") - sum(" + p + "_ready" + nsFilter + ")", Legend: "Not Ready"},
		},
	}, {
		Title:       "Not Ready " + s.Kind + " CRs",
		Description: "One line per CR whose Ready condition is not True (" + s.NotReadyAlert() + " fires when one stays).",
		Targets:     []Target{{Expr: p + "_ready" + nsFilter + " == 0", Legend: who}},
	}, {
		Title: "Reconcile errors by step", Unit: "ops",
		Description: "Errors each step of the pipeline returned, by the condition it reports through.",
		Targets: []Target{{Expr: "sum by (sub_reconciler, condition_type) (rate(" + p + "_reconcile_errors_total[$__rate_interval]))",
			Legend: "{{sub_reconciler}} ({{condition_type}})"}},
	}, {
		Title: "Step duration, p95", Unit: "s",
		Description: "95th percentile of each step's duration per pass.",
		Targets: []Target{{Expr: "histogram_quantile(0.95, sum by (le, sub_reconciler) (rate(" + p +
			"_reconcile_duration_seconds_bucket[$__rate_interval])))", Legend: "{{sub_reconciler}}"}},
	}, {
		Title: "API health probes", Unit: "ops",
		Description: "Probes the operator sent to the " + s.Kind + " APIs (cached passing answers not counted), by result and reason.",
		Targets: []Target{{Expr: "sum by (result, reason) (rate(" + p + "_health_probes_total[$__rate_interval]))",
			Legend: "{{result}}: {{reason}}"}},
	}, {
		Title: "Operator build", Stat: true,
		Description: "Which build of the operator runs (version and commit), one per running replica.",
		Targets:     []Target{{Expr: "count by (version, commit) (" + p + "_build_info)", Legend: "{{version}} ({{commit}})"}},
	}}
	for _, j := range s.Jobs {
		m := p + "_" + j.Metric
		out = append(out, Panel{
			Title:       j.Title + " Jobs per hour",
			Description: "Terminal " + j.Title + " Jobs per CR by result, counted once per Job.",
			Targets: []Target{{Expr: "sum by (namespace, " + cr + ", result) (increase(" + m + "_total" + nsFilter + "[1h]))",
				Legend: who + " {{result}}"}},
		}, Panel{
			Title: j.Title + " Job duration, p95", Unit: "s",
			Description: "95th percentile of the time from a " + j.Title + " Job's creation to its end.",
			Targets: []Target{{Expr: "histogram_quantile(0.95, sum by (le, namespace, " + cr + ") (rate(" + m +
				"_duration_seconds_bucket" + nsFilter + "[$__rate_interval])))", Legend: who}},
		})
	}
	return append(out, s.Panels...)
}

// Grafana's JSON model, the parts the dashboard uses.
type dashboard struct {
	UID           string            `json:"uid"`
	Title         string            `json:"title"`
	Description   string            `json:"description"`
	Tags          []string          `json:"tags"`
	Editable      bool              `json:"editable"`
	SchemaVersion int               `json:"schemaVersion"`
	Refresh       string            `json:"refresh"`
	Time          map[string]string `json:"time"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type variable struct {
	Name       string      `json:"name"`
	Label      string      `json:"label"`
	Type       string      `json:"type"`
	Query      any         `json:"query"`
	Datasource *datasource `json:"datasource,omitempty"`
	Definition string      `json:"definition,omitempty"`
	IncludeAll bool        `json:"includeAll,omitempty"`
	Multi      bool        `json:"multi,omitempty"`
	AllValue   string      `json:"allValue,omitempty"`
	Refresh    int         `json:"refresh,omitempty"`
}

type panel struct {
	ID          int            `json:"id"`
	Type        string         `json:"type"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Datasource  datasource     `json:"datasource"`
	GridPos     map[string]int `json:"gridPos"`
	FieldConfig struct {
		Defaults struct {
			Unit string `json:"unit,omitempty"`
		} `json:"defaults"`
		Overrides []any `json:"overrides"`
	} `json:"fieldConfig"`
	Targets []target `json:"targets"`
}

type target struct {
	RefID        string     `json:"refId"`
	Expr         string     `json:"expr"`
	LegendFormat string     `json:"legendFormat"`
	Datasource   datasource `json:"datasource"`
}

var promDS = datasource{Type: "prometheus", UID: "${datasource}"}

// DashboardJSON is the operator's Grafana dashboard: a data source and a
// namespace variable, two panels a row.
func (s Spec) DashboardJSON() ([]byte, error) {
	d := dashboard{
		UID: strings.ReplaceAll(s.Prefix, "_", "-"), Title: s.Kind + " operator",
		Description: "The " + s.Kind + " operator's CRs, pipeline steps, API probes and Jobs (" + s.Prefix + "_* metrics).",
		Tags:        []string{"c5c3", "openstack", s.KindLabel}, Editable: true, SchemaVersion: 39,
		Refresh: "1m", Time: map[string]string{"from": "now-6h", "to": "now"},
	}
	nsQuery := "label_values(" + s.Prefix + "_ready, namespace)"
	d.Templating.List = []variable{
		{Name: "datasource", Label: "Data source", Type: "datasource", Query: "prometheus"},
		{Name: "namespace", Label: "Namespace", Type: "query", Datasource: &promDS, Definition: nsQuery,
			Query: map[string]string{"query": nsQuery, "refId": "namespaces"}, IncludeAll: true, Multi: true,
			AllValue: ".*", Refresh: 2},
	}
	for i, p := range s.DashboardPanels() {
		out := panel{ID: i + 1, Type: "timeseries", Title: p.Title, Description: p.Description, Datasource: promDS,
			GridPos: map[string]int{"h": 8, "w": 12, "x": 12 * (i % 2), "y": 8 * (i / 2)}}
		if p.Stat {
			out.Type = "stat"
		}
		out.FieldConfig.Defaults.Unit = p.Unit
		out.FieldConfig.Overrides = []any{}
		for j, t := range p.Targets {
			out.Targets = append(out.Targets, target{RefID: string(rune('A' + j)), Expr: t.Expr, LegendFormat: t.Legend, Datasource: promDS})
		}
		d.Panels = append(d.Panels, out)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	return append(b, '\n'), err
}

var labelValues = regexp.MustCompile(`^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)`)

// DashboardExprs returns every PromQL expression of a dashboard: each
// panel target's, and the metric each label_values variable reads.
func DashboardExprs(b []byte) ([]string, error) {
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, err
	}
	var out []string
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		m := labelValues.FindStringSubmatch(v.Definition)
		if m == nil {
			return nil, fmt.Errorf("variable %s: not a label_values query: %q", v.Name, v.Definition)
		}
		out = append(out, m[1])
	}
	for _, p := range d.Panels {
		for _, t := range p.Targets {
			out = append(out, t.Expr)
		}
	}
	return out, nil
}
