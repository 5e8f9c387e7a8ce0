package observability

import (
	"slices"
	"testing"
)

func TestMetricNames(t *testing.T) {
	tests := []struct {
		expr string
		want []string
	}{
		{expr: `up`, want: []string{"up"}},
		{expr: `x_ready == 0`, want: []string{"x_ready"}},
		{expr: `sum by (sub_reconciler, condition_type) (rate(x_errors_total[10m])) > 0`, want: []string{"x_errors_total"}},
		{expr: `histogram_quantile(0.95, sum by (le) (rate(x_seconds_bucket{namespace=~"$namespace"}[$__rate_interval])))`,
			want: []string{"x_seconds_bucket"}},
		{expr: `a{l="by (q) or b"} / on (namespace) group_left (kind) c offset 5m`, want: []string{"a", "c"}},
		{expr: `a > bool 1 and b unless c or d`, want: []string{"a", "b", "c", "d"}},
		{expr: `sum without (instance) (a) + count(b) * 1e3 + NaN + Inf`, want: []string{"a", "b"}},
		{expr: `x:recorded:rate5m`, want: []string{"x:recorded:rate5m"}},
		{expr: `{__name__="hidden"}`, want: []string{}},
		{expr: `sum by(store,namespace)(increase(r{trigger="reactive"}[6h])) > on(store) (p or r * 0)`, want: []string{"p", "r"}},
		{expr: `rate(a[5m:1m])`, want: []string{"a"}},
		{expr: `label_replace(a, "dst", "$1", "src", "(.*)")`, want: []string{"a"}},
	}
	for _, tt := range tests {
		if got := MetricNames(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("MetricNames(%q) = %v, want %v", tt.expr, got, tt.want)
		}
	}
}
