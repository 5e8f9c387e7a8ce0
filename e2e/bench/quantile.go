package bench

import (
	"math"
	"sort"
)

// Quantile estimates the q-quantile of a classic histogram the way PromQL's
// histogram_quantile does: find the bucket holding rank q·count and
// interpolate linearly inside it, the first bucket starting at 0; a rank in
// the +Inf bucket yields the highest finite upper bound. NaN when there are
// no observations, fewer than two buckets or no +Inf bucket; -Inf/+Inf for
// q below 0 or above 1.
func Quantile(q float64, buckets []Bucket) float64 {
	switch {
	case math.IsNaN(q):
		return math.NaN()
	case q < 0:
		return math.Inf(-1)
	case q > 1:
		return math.Inf(+1)
	}
	b := normalise(buckets)
	if len(b) < 2 || !math.IsInf(b[len(b)-1].UpperBound, +1) {
		return math.NaN()
	}
	total := b[len(b)-1].Count
	if total == 0 {
		return math.NaN()
	}
	rank := q * total
	// The first finite bucket whose cumulative count reaches the rank.
	i := sort.Search(len(b)-1, func(i int) bool { return b[i].Count >= rank })
	if i == len(b)-1 {
		return b[len(b)-2].UpperBound
	}
	if i == 0 && b[0].UpperBound <= 0 {
		return b[0].UpperBound
	}
	lower, below := 0.0, 0.0
	if i > 0 {
		lower, below = b[i-1].UpperBound, b[i-1].Count
	}
	return lower + (b[i].UpperBound-lower)*((rank-below)/(b[i].Count-below))
}

// normalise sorts by upper bound, merges equal bounds and makes the
// cumulative counts non-decreasing, as PromQL does before interpolating
// (scrapes of a live histogram can be slightly inconsistent).
func normalise(in []Bucket) []Bucket {
	b := append([]Bucket(nil), in...)
	sort.SliceStable(b, func(i, j int) bool { return b[i].UpperBound < b[j].UpperBound })
	out := b[:0]
	for _, x := range b {
		if n := len(out); n > 0 && out[n-1].UpperBound == x.UpperBound {
			out[n-1].Count += x.Count
			continue
		}
		out = append(out, x)
	}
	for i := 1; i < len(out); i++ {
		if out[i].Count < out[i-1].Count {
			out[i].Count = out[i-1].Count
		}
	}
	return out
}

// Quantiles are the percentiles the report shows for one histogram.
type Quantiles struct {
	Count float64 `json:"count"`
	P50   float64 `json:"p50_seconds"`
	P95   float64 `json:"p95_seconds"`
	P99   float64 `json:"p99_seconds"`
}

// QuantilesOf summarises a histogram; an empty one gives zero quantiles
// rather than NaN, which JSON cannot carry.
func QuantilesOf(h Histogram) Quantiles {
	if h.Count <= 0 {
		return Quantiles{}
	}
	return Quantiles{Count: h.Count, P50: Quantile(0.5, h.Buckets), P95: Quantile(0.95, h.Buckets), P99: Quantile(0.99, h.Buckets)}
}
