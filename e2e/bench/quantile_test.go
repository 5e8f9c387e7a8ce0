package bench

import (
	"math"
	"strings"
	"testing"
)

func TestQuantile(t *testing.T) {
	inf := math.Inf(+1)
	// 10 observations ≤0.1, 10 in (0.1,0.5], 10 in (0.5,1], 10 above 1.
	base := []Bucket{{0.1, 10}, {0.5, 20}, {1, 30}, {inf, 40}}
	tests := []struct {
		name    string
		q       float64
		buckets []Bucket
		want    float64
	}{
		{"first bucket interpolates from zero", 0.125, base, 0.05},
		{"bucket boundary", 0.25, base, 0.1},
		{"middle bucket", 0.5, base, 0.5},
		{"inside a bucket", 0.6, base, 0.7},
		{"rank in +Inf bucket gives the highest finite bound", 0.9, base, 1},
		{"q=1 also", 1, base, 1},
		{"unsorted input is sorted", 0.6, []Bucket{{inf, 40}, {1, 30}, {0.1, 10}, {0.5, 20}}, 0.7},
		{"duplicate bounds are merged", 0.5, []Bucket{{0.1, 5}, {0.1, 5}, {0.5, 20}, {1, 30}, {inf, 40}}, 0.5},
		{"non-monotonic counts are raised", 0.5, []Bucket{{0.1, 10}, {0.5, 20}, {1, 19}, {inf, 40}}, 0.5},
		{"negative first bound is returned as is", 0.1, []Bucket{{-1, 5}, {inf, 10}}, -1},
		{"q below 0", -0.1, base, math.Inf(-1)},
		{"q above 1", 1.1, base, math.Inf(+1)},
		{"no observations", 0.5, []Bucket{{0.1, 0}, {inf, 0}}, math.NaN()},
		{"no +Inf bucket", 0.5, []Bucket{{0.1, 1}, {1, 2}}, math.NaN()},
		{"a single bucket", 0.5, []Bucket{{inf, 3}}, math.NaN()},
		{"NaN q", math.NaN(), base, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Quantile(tt.q, tt.buckets)
			if math.IsNaN(tt.want) {
				if !math.IsNaN(got) {
					t.Fatalf("Quantile(%v) = %v, want NaN", tt.q, got)
				}
				return
			}
			if math.Abs(got-tt.want) > 1e-9 && got != tt.want {
				t.Fatalf("Quantile(%v) = %v, want %v", tt.q, got, tt.want)
			}
		})
	}
}

const exposition = `# HELP d Duration.
# TYPE d histogram
d_bucket{step="a",le="0.1"} 1
d_bucket{step="a",le="1"} 3
d_bucket{step="a",le="+Inf"} 4
d_sum{step="a"} 3.5
d_count{step="a"} 4
d_bucket{step="b",le="0.1"} 2
d_bucket{step="b",le="1"} 2
d_bucket{step="b",le="+Inf"} 2
d_sum{step="b"} 0.1
d_count{step="b"} 2
# HELP c Counter.
# TYPE c counter
c{controller="x",result="success"} 5
c{controller="x",result="error"} 2
c{controller="y",result="success"} 7
`

func TestFamilies(t *testing.T) {
	f, err := ParseFamilies(strings.NewReader(exposition))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Sum("c", map[string]string{"controller": "x"}); got != 7 {
		t.Errorf("Sum(controller=x) = %v, want 7", got)
	}
	if got := f.Sum("c", nil); got != 14 {
		t.Errorf("Sum() = %v, want 14", got)
	}
	if got := f.Sum("missing", nil); got != 0 {
		t.Errorf("Sum(missing) = %v, want 0", got)
	}
	hs := f.Histograms("d", "step", nil)
	a := hs["a"]
	if a.Count != 4 || len(a.Buckets) != 3 || !math.IsInf(a.Buckets[2].UpperBound, +1) {
		t.Fatalf("histogram a = %+v, want 4 observations in 3 buckets ending at +Inf", a)
	}
	// A later scrape: 2 more observations in (0.1, 1].
	later := Histogram{Count: 6, Sum: 4.5, Buckets: []Bucket{{0.1, 1}, {1, 5}, {math.Inf(+1), 6}}}
	d := later.Sub(a)
	if d.Count != 2 || d.Buckets[0].Count != 0 || d.Buckets[1].Count != 2 || d.Buckets[2].Count != 2 {
		t.Fatalf("delta = %+v, want the 2 new observations in (0.1, 1]", d)
	}
	if q := QuantilesOf(d); q.Count != 2 || q.P50 != 0.55 {
		t.Errorf("quantiles of the delta = %+v, want p50 0.55 (midway in (0.1, 1])", q)
	}
	if q := QuantilesOf(Histogram{}); q != (Quantiles{}) {
		t.Errorf("quantiles of an empty histogram = %+v, want zero", q)
	}
}
