// Package metrics owns the Prometheus vectors of one operator: the pipeline
// vectors (never deleted, no CR labels) and the per-CR db-sync collectors,
// whose series are dropped when the CR's finalizer completes.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
)

// UnknownCondition labels an error of a step that maps to no condition.
const UnknownCondition = "UNKNOWN"

// Set holds an operator's vectors under its prefix, e.g. placement_operator.
type Set struct {
	// KindLabel is the CR label of the per-CR series, e.g. placement.
	KindLabel      string
	Duration       *prometheus.HistogramVec
	Errors         *prometheus.CounterVec
	DBSyncTotal    *prometheus.CounterVec
	DBSyncDuration *prometheus.HistogramVec
}

// New builds the vectors of an operator; register them with Register.
func New(prefix, kindLabel string) *Set {
	return &Set{
		KindLabel: kindLabel,
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    prefix + "_reconcile_duration_seconds",
			Help:    "Duration of each sub-reconciler of the pipeline.",
			Buckets: []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"sub_reconciler"}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: prefix + "_reconcile_errors_total",
			Help: "Errors returned by each sub-reconciler, by the condition it reports through.",
		}, []string{"sub_reconciler", "condition_type"}),
		DBSyncTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: prefix + "_db_sync_total",
			Help: "Terminal db-sync Jobs per CR, by result (succeeded or failed).",
		}, []string{kindLabel, "namespace", "result"}),
		DBSyncDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    prefix + "_db_sync_duration_seconds",
			Help:    "Duration of terminal db-sync Jobs per CR, from creation to the terminal condition.",
			Buckets: []float64{1, 5, 10, 30, 60, 120, 300, 600},
		}, []string{kindLabel, "namespace"}),
	}
}

// Register registers every vector; it panics on a duplicate, as at start-up it should.
func (s *Set) Register(reg prometheus.Registerer) {
	reg.MustRegister(s.Duration, s.Errors, s.DBSyncTotal, s.DBSyncDuration)
}

// ObserveDBSync counts one terminal db-sync Job of a CR.
func (s *Set) ObserveDBSync(name, namespace, result string, seconds float64) {
	s.DBSyncTotal.WithLabelValues(name, namespace, result).Inc()
	s.DBSyncDuration.WithLabelValues(name, namespace).Observe(seconds)
}

// DropCR deletes every per-CR series of one CR.
func (s *Set) DropCR(name, namespace string) {
	match := prometheus.Labels{s.KindLabel: name, "namespace": namespace}
	s.DBSyncTotal.DeletePartialMatch(match)
	s.DBSyncDuration.DeletePartialMatch(match)
}
