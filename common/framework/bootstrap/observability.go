package bootstrap

import (
	opmetrics "github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/lib/observability"
)

// Metrics builds the operator's shared vectors, as New registers them.
func (op Operator[R]) Metrics() *opmetrics.Set {
	return opmetrics.New(op.MetricsPrefix(), op.Profile.Service, op.Periodic...)
}

// MetricNames are the names of the metrics the operator registers: the
// shared vectors and its own Collectors.
func (op Operator[R]) MetricNames() []string {
	collectors := op.Metrics().Collectors()
	if op.Collectors != nil {
		collectors = append(collectors, op.Collectors(op.MetricsPrefix())...)
	}
	return opmetrics.Names(collectors...)
}

// jobRunbooks say what to do about a failed Job of each kind.
var jobRunbooks = map[string]observability.Job{
	opmetrics.JobDBSync: {Title: "db-sync", Alert: "DBSyncJobFailed", Runbook: "The CR's DatabaseReady condition and its DBSyncFailed event " +
		"name the Job; its pod's log says why the schema step failed (the database unreachable, credentials " +
		"refused, a migration error). The operator runs a new Job once the cause is mended and the Job deleted."},
	opmetrics.JobDBPurge: {Title: "DBPurge", Alert: "DBPurgeFailed", Runbook: "The newest run's pod log " +
		"says why the purge of soft-deleted rows failed; the next scheduled run retries it."},
	opmetrics.JobDBClean: {Title: "DBClean", Alert: "DBCleanFailed", Runbook: "The newest run's pod log " +
		"says why the clean-up of soft-deleted secrets failed; the next scheduled run retries it."},
}

// Observability describes the operator's dashboard and alerts: the shared
// panels and rules over its prefix, its Job kinds, then what Observe adds.
func (op Operator[R]) Observability() observability.Spec {
	s := observability.Spec{Prefix: op.MetricsPrefix(), KindLabel: op.Profile.Service, Kind: op.Profile.Kind}
	for _, kind := range append([]string{opmetrics.JobDBSync}, op.Periodic...) {
		j := jobRunbooks[kind]
		j.Metric, j.Alert = kind, op.Profile.Kind+j.Alert
		s.Jobs = append(s.Jobs, j)
	}
	if op.Observe != nil {
		op.Observe(&s)
	}
	return s
}
