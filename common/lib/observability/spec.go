// Package observability builds an operator's Grafana dashboard and its
// Prometheus alerting rules from what the operator registers (pure
// builders); hack/generate.sh writes them into the operator's chart, which
// ships them behind values flags. MetricNames reads the metric names a
// PromQL expression uses, so a test can check each against the registry.
package observability

// Spec describes one operator's metrics to the builders.
type Spec struct {
	// Prefix of the operator's metric names, e.g. placement_operator.
	Prefix string
	// KindLabel is the CR label of the per-CR series, e.g. placement.
	KindLabel string
	// Kind names the CR in titles and alert names, e.g. Placement.
	Kind string
	// Jobs are the Job kinds with <prefix>_<kind>_total and
	// _duration_seconds series, db_sync first.
	Jobs []Job
	// Panels and Rules are the operator's own, after the shared ones.
	Panels []Panel
	Rules  []Rule
}

// Job is one kind of Job the operator counts.
type Job struct {
	// Metric is the kind in the metric name: db_sync, db_purge, db_clean.
	Metric string
	// Title names the Jobs in panel titles and alerts ("db-sync").
	Title string
	// Alert is the alert's name, e.g. PlacementDBSyncJobFailed.
	Alert string
	// Runbook says what to do when one failed.
	Runbook string
}

// Panel is one dashboard panel of time series.
type Panel struct {
	Title       string
	Description string
	Unit        string
	Targets     []Target
	// Stat shows the last value instead of a graph.
	Stat bool
}

// Target is one query of a panel.
type Target struct {
	Expr   string
	Legend string
}

// Rule is one alerting rule.
type Rule struct {
	Alert    string
	Expr     string
	For      string
	Severity string
	Summary  string
	// Description may use $labels and $value as Prometheus templates do.
	Description string
}

// NotReadyAlert names the alert on a CR that stays not Ready.
func (s Spec) NotReadyAlert() string { return s.Kind + "NotReady" }

// ReconcileErrorsAlert names the alert on lasting reconcile errors.
func (s Spec) ReconcileErrorsAlert() string { return s.Kind + "OperatorReconcileErrors" }

// ProbeFailuresAlert names the alert on failing API health probes.
func (s Spec) ProbeFailuresAlert() string { return s.Kind + "APIProbeFailures" }

// DefaultNotReadyFor is how long a CR may stay not Ready before its alert
// fires; the chart's metrics.prometheusRule.notReadyFor overrides it.
const DefaultNotReadyFor = "15m"
