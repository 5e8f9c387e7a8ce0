// Package metrics owns the Prometheus vectors of one operator: the pipeline
// vectors (never deleted, no CR labels) and the per-CR Job collectors
// (db-sync, and the runs of a periodic CronJob), whose series are dropped
// when the CR's finalizer completes.
package metrics

import (
	"maps"
	"regexp"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/c5c3/openstack-operators/common/lib/version"
)

// UnknownCondition labels an error of a step that maps to no condition.
const UnknownCondition = "UNKNOWN"

// Job kinds with per-CR series: <prefix>_<kind>_total and _duration_seconds.
const (
	JobDBSync  = "db_sync"
	JobDBPurge = "db_purge"
	JobDBClean = "db_clean"
)

// JobSeries counts the terminal Jobs of one kind per CR.
type JobSeries struct {
	Total    *prometheus.CounterVec
	Duration *prometheus.HistogramVec
}

// Set holds an operator's vectors under its prefix, e.g. placement_operator.
type Set struct {
	// KindLabel is the CR label of the per-CR series, e.g. placement.
	KindLabel string
	Duration  *prometheus.HistogramVec
	Errors    *prometheus.CounterVec
	// DBSyncTotal and DBSyncDuration are Jobs[JobDBSync].
	DBSyncTotal    *prometheus.CounterVec
	DBSyncDuration *prometheus.HistogramVec
	// Jobs are the per-CR series by Job kind: db_sync always, plus the
	// periodic kinds New was given.
	Jobs map[string]JobSeries
	// BuildInfo is 1, labelled with the binary's version, commit, build
	// date and Go version.
	BuildInfo *prometheus.GaugeVec
	// Ready is 1 while a CR's Ready condition is True, else 0; per CR,
	// dropped with the CR's other series.
	Ready *prometheus.GaugeVec
	// Probes counts the API health probes actually sent (not the cached
	// answers), by result and condition reason.
	Probes *prometheus.CounterVec
}

// New builds the vectors of an operator; register them with Register.
// periodic names the kinds of CronJob runs it counts (Glance: db_purge).
func New(prefix, kindLabel string, periodic ...string) *Set {
	s := &Set{
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
		Jobs: map[string]JobSeries{},
		BuildInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: prefix + "_build_info",
			Help: "Always 1; the labels say which build of the operator runs.",
		}, []string{"version", "commit", "build_date", "goversion"}),
		Ready: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: prefix + "_ready",
			Help: "1 while the CR's Ready condition is True, else 0; set on every pass, dropped when the CR's finalizer completes.",
		}, []string{kindLabel, "namespace"}),
		Probes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: prefix + "_health_probes_total",
			Help: "API health probes sent (cached passing answers are not counted), by result (succeeded or failed) and reason.",
		}, []string{"result", "reason"}),
	}
	v := version.Get()
	s.BuildInfo.WithLabelValues(v.Version, v.Commit, v.Date, v.GoVersion).Set(1)
	for _, kind := range append([]string{JobDBSync}, periodic...) {
		s.Jobs[kind] = JobSeries{
			Total: prometheus.NewCounterVec(prometheus.CounterOpts{
				Name: prefix + "_" + kind + "_total",
				Help: "Terminal " + kind + " Jobs per CR, by result (succeeded or failed).",
			}, []string{kindLabel, "namespace", "result"}),
			Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
				Name:    prefix + "_" + kind + "_duration_seconds",
				Help:    "Duration of terminal " + kind + " Jobs per CR, from creation to the terminal condition.",
				Buckets: []float64{1, 5, 10, 30, 60, 120, 300, 600},
			}, []string{kindLabel, "namespace"}),
		}
	}
	s.DBSyncTotal, s.DBSyncDuration = s.Jobs[JobDBSync].Total, s.Jobs[JobDBSync].Duration
	return s
}

// Collectors are every vector of the set.
func (s *Set) Collectors() []prometheus.Collector {
	out := []prometheus.Collector{s.Duration, s.Errors, s.BuildInfo, s.Ready, s.Probes}
	for _, kind := range slices.Sorted(maps.Keys(s.Jobs)) {
		out = append(out, s.Jobs[kind].Total, s.Jobs[kind].Duration)
	}
	return out
}

// Register registers every vector; it panics on a duplicate, as at start-up it should.
func (s *Set) Register(reg prometheus.Registerer) {
	reg.MustRegister(s.Collectors()...)
}

// SetReady records whether a CR is Ready.
func (s *Set) SetReady(name, namespace string, ready bool) {
	v := 0.0
	if ready {
		v = 1
	}
	s.Ready.WithLabelValues(name, namespace).Set(v)
}

// ObserveProbe counts one API health probe that was sent.
func (s *Set) ObserveProbe(healthy bool, reason string) {
	result := "failed"
	if healthy {
		result = "succeeded"
	}
	s.Probes.WithLabelValues(result, reason).Inc()
}

// ObserveDBSync counts one terminal db-sync Job of a CR.
func (s *Set) ObserveDBSync(name, namespace, result string, seconds float64) {
	s.ObserveJob(JobDBSync, name, namespace, result, seconds)
}

// ObserveJob counts one terminal Job of kind of a CR; an unknown kind is
// ignored (the operator did not ask for its series).
func (s *Set) ObserveJob(kind, name, namespace, result string, seconds float64) {
	j, ok := s.Jobs[kind]
	if !ok {
		return
	}
	j.Total.WithLabelValues(name, namespace, result).Inc()
	j.Duration.WithLabelValues(name, namespace).Observe(seconds)
}

// DropCR deletes every per-CR series of one CR.
func (s *Set) DropCR(name, namespace string) {
	match := prometheus.Labels{s.KindLabel: name, "namespace": namespace}
	s.Ready.DeletePartialMatch(match)
	for _, j := range s.Jobs {
		j.Total.DeletePartialMatch(match)
		j.Duration.DeletePartialMatch(match)
	}
}

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

// Names are the metric names the collectors describe, sorted; a histogram's
// series add _bucket, _sum and _count to its name.
func Names(cs ...prometheus.Collector) []string {
	seen := map[string]bool{}
	for _, c := range cs {
		ch := make(chan *prometheus.Desc, 16)
		go func() { c.Describe(ch); close(ch) }()
		for d := range ch {
			if m := fqName.FindStringSubmatch(d.String()); m != nil {
				seen[m[1]] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
