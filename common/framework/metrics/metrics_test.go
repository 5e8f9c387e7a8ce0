package metrics

import (
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/c5c3/openstack-operators/common/lib/version"
)

func TestDropCR(t *testing.T) {
	tests := []struct {
		name, dropName, dropNamespace string
		wantTotal, wantDuration       int
	}{
		{name: "drops every result of that CR only", dropName: "a", dropNamespace: "ns1", wantTotal: 2, wantDuration: 2},
		{name: "same name in another namespace", dropName: "a", dropNamespace: "ns2", wantTotal: 3, wantDuration: 2},
		{name: "unknown CR drops nothing", dropName: "zz", dropNamespace: "ns1", wantTotal: 4, wantDuration: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New("test_operator", "test")
			s.ObserveDBSync("a", "ns1", "succeeded", 12)
			s.ObserveDBSync("a", "ns1", "failed", 3)
			s.ObserveDBSync("a", "ns2", "succeeded", 5)
			s.ObserveDBSync("b", "ns1", "succeeded", 7)
			s.Errors.WithLabelValues("secrets", UnknownCondition).Inc()
			s.Duration.WithLabelValues("secrets").Observe(0.1)

			s.DropCR(tt.dropName, tt.dropNamespace)

			if n := testutil.CollectAndCount(s.DBSyncTotal); n != tt.wantTotal {
				t.Errorf("db_sync_total series = %d, want %d", n, tt.wantTotal)
			}
			if n := testutil.CollectAndCount(s.DBSyncDuration); n != tt.wantDuration {
				t.Errorf("db_sync_duration series = %d, want %d", n, tt.wantDuration)
			}
			if n := testutil.CollectAndCount(s.Errors) + testutil.CollectAndCount(s.Duration); n != 2 {
				t.Errorf("pipeline series = %d, want 2 (never dropped)", n)
			}
			if v := testutil.ToFloat64(s.DBSyncTotal.WithLabelValues("b", "ns1", "succeeded")); v != 1 {
				t.Errorf("b/ns1 succeeded = %v, want 1 (untouched)", v)
			}
		})
	}
}

func TestNamesCarryPrefixAndKindLabel(t *testing.T) {
	s := New("placement_operator", "placement")
	reg := prometheus.NewPedanticRegistry()
	s.Register(reg)
	s.ObserveDBSync("p", "ns", "succeeded", 1)
	s.Errors.WithLabelValues("secrets", "SecretsReady").Inc()
	s.Duration.WithLabelValues("secrets").Observe(0.1)

	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	labels := map[string][]string{}
	for _, mf := range mfs {
		names = append(names, mf.GetName())
		for _, l := range mf.GetMetric()[0].GetLabel() {
			labels[mf.GetName()] = append(labels[mf.GetName()], l.GetName())
		}
	}
	want := []string{
		"placement_operator_build_info",
		"placement_operator_db_sync_duration_seconds",
		"placement_operator_db_sync_total",
		"placement_operator_reconcile_duration_seconds",
		"placement_operator_reconcile_errors_total",
	}
	if !slices.Equal(names, want) {
		t.Errorf("metric names = %v, want %v", names, want)
	}
	wantLabels := map[string][]string{
		"placement_operator_build_info":                 {"build_date", "commit", "goversion", "version"},
		"placement_operator_db_sync_duration_seconds":   {"namespace", "placement"},
		"placement_operator_db_sync_total":              {"namespace", "placement", "result"},
		"placement_operator_reconcile_duration_seconds": {"sub_reconciler"},
		"placement_operator_reconcile_errors_total":     {"condition_type", "sub_reconciler"},
	}
	for n, w := range wantLabels {
		if !slices.Equal(labels[n], w) {
			t.Errorf("labels of %s = %v, want %v", n, labels[n], w)
		}
	}
}

// A periodic Job kind gets its own pair under the prefix; DropCR removes its
// series of one CR only; an unrequested kind is ignored.
func TestPeriodicJobSeries(t *testing.T) {
	s := New("glance_operator", "glance", JobDBPurge)
	reg := prometheus.NewPedanticRegistry()
	s.Register(reg)
	s.ObserveJob(JobDBPurge, "g", "ns", "failed", 4)
	s.ObserveJob(JobDBPurge, "h", "ns", "succeeded", 2)
	s.ObserveJob(JobDBClean, "g", "ns", "failed", 4)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mf := range mfs {
		names = append(names, mf.GetName())
	}
	for _, want := range []string{"glance_operator_db_purge_total", "glance_operator_db_purge_duration_seconds"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s not gathered: %v", want, names)
		}
	}
	if slices.Contains(names, "glance_operator_db_clean_total") {
		t.Error("an unrequested kind was counted")
	}
	if v := testutil.ToFloat64(s.Jobs[JobDBPurge].Total.WithLabelValues("g", "ns", "failed")); v != 1 {
		t.Errorf("g failed = %v", v)
	}
	s.DropCR("g", "ns")
	if n := testutil.CollectAndCount(s.Jobs[JobDBPurge].Total); n != 1 {
		t.Errorf("%d purge series after dropping g, want h's only", n)
	}
}

// The build_info gauge carries what the binary says of itself.
func TestBuildInfo(t *testing.T) {
	s := New("placement_operator", "placement")
	v := version.Get()
	if got := testutil.ToFloat64(s.BuildInfo.WithLabelValues(v.Version, v.Commit, v.Date, v.GoVersion)); got != 1 {
		t.Errorf("build_info{%s} = %v, want 1", v.Version, got)
	}
	if n := testutil.CollectAndCount(s.BuildInfo); n != 1 {
		t.Errorf("build_info series = %d, want 1", n)
	}
}

// Ready follows the last pass of each CR and goes with the CR's other series.
func TestReadyGauge(t *testing.T) {
	s := New("placement_operator", "placement")
	s.SetReady("a", "ns", false)
	s.SetReady("b", "ns", true)
	if v := testutil.ToFloat64(s.Ready.WithLabelValues("a", "ns")); v != 0 {
		t.Errorf("a = %v, want 0", v)
	}
	s.SetReady("a", "ns", true)
	if v := testutil.ToFloat64(s.Ready.WithLabelValues("a", "ns")); v != 1 {
		t.Errorf("a after Ready = %v, want 1", v)
	}
	s.DropCR("a", "ns")
	if n := testutil.CollectAndCount(s.Ready); n != 1 {
		t.Errorf("%d ready series after dropping a, want b's only", n)
	}
}

// Probes count by result; the reason says why one failed.
func TestProbeCounter(t *testing.T) {
	s := New("placement_operator", "placement")
	s.ObserveProbe(true, "APIHealthy")
	s.ObserveProbe(false, "ConnectionFailed")
	s.ObserveProbe(false, "ConnectionFailed")
	if v := testutil.ToFloat64(s.Probes.WithLabelValues("failed", "ConnectionFailed")); v != 2 {
		t.Errorf("failed/ConnectionFailed = %v, want 2", v)
	}
	if v := testutil.ToFloat64(s.Probes.WithLabelValues("succeeded", "APIHealthy")); v != 1 {
		t.Errorf("succeeded/APIHealthy = %v, want 1", v)
	}
}

// Names lists what Register registers, without any series observed.
func TestNamesDescribeEveryCollector(t *testing.T) {
	s := New("glance_operator", "glance", JobDBPurge)
	got := Names(s.Collectors()...)
	want := []string{
		"glance_operator_build_info",
		"glance_operator_db_purge_duration_seconds",
		"glance_operator_db_purge_total",
		"glance_operator_db_sync_duration_seconds",
		"glance_operator_db_sync_total",
		"glance_operator_health_probes_total",
		"glance_operator_ready",
		"glance_operator_reconcile_duration_seconds",
		"glance_operator_reconcile_errors_total",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
}
