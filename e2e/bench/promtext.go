package bench

import (
	"fmt"
	"io"
	"math"
	"sort"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are the metric families of one scrape, by name.
type Families map[string]*dto.MetricFamily

// ParseFamilies reads the Prometheus text exposition format.
func ParseFamilies(r io.Reader) (Families, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(r)
	if err != nil {
		return nil, fmt.Errorf("parsing metrics: %w", err)
	}
	return mfs, nil
}

// matches reports whether a series carries every label of want.
func matches(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(want)
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// Sum adds the values of the counter or gauge series matching want.
func (f Families) Sum(name string, want map[string]string) float64 {
	var total float64
	for _, m := range f[name].GetMetric() {
		if !matches(m, want) {
			continue
		}
		switch {
		case m.Counter != nil:
			total += m.GetCounter().GetValue()
		case m.Gauge != nil:
			total += m.GetGauge().GetValue()
		case m.Untyped != nil:
			total += m.GetUntyped().GetValue()
		}
	}
	return total
}

// Histogram is one classic histogram: cumulative bucket counts by upper bound.
type Histogram struct {
	Buckets []Bucket
	Count   float64
	Sum     float64
}

// Bucket is one cumulative bucket.
type Bucket struct {
	UpperBound float64
	Count      float64
}

// Histograms returns the histogram series of a family keyed by the value of
// by, merging series that share it (same bucket layout within a family).
func (f Families) Histograms(name, by string, want map[string]string) map[string]Histogram {
	out := map[string]Histogram{}
	for _, m := range f[name].GetMetric() {
		if m.Histogram == nil || !matches(m, want) {
			continue
		}
		key := label(m, by)
		out[key] = out[key].add(fromDTO(m.GetHistogram()))
	}
	return out
}

// fromDTO converts one series, making the +Inf bucket explicit.
func fromDTO(h *dto.Histogram) Histogram {
	out := Histogram{Count: float64(h.GetSampleCount()), Sum: h.GetSampleSum()}
	hasInf := false
	for _, b := range h.GetBucket() {
		out.Buckets = append(out.Buckets, Bucket{UpperBound: b.GetUpperBound(), Count: float64(b.GetCumulativeCount())})
		hasInf = hasInf || math.IsInf(b.GetUpperBound(), +1)
	}
	if !hasInf {
		out.Buckets = append(out.Buckets, Bucket{UpperBound: math.Inf(+1), Count: out.Count})
	}
	sort.Slice(out.Buckets, func(i, j int) bool { return out.Buckets[i].UpperBound < out.Buckets[j].UpperBound })
	return out
}

// add sums two histograms bucket by bucket (by upper bound).
func (h Histogram) add(o Histogram) Histogram {
	return h.combine(o, 1)
}

// Sub is h minus an earlier scrape of the same series: the observations in
// between.
func (h Histogram) Sub(earlier Histogram) Histogram {
	return h.combine(earlier, -1)
}

func (h Histogram) combine(o Histogram, sign float64) Histogram {
	counts := map[float64]float64{}
	for _, b := range h.Buckets {
		counts[b.UpperBound] += b.Count
	}
	for _, b := range o.Buckets {
		counts[b.UpperBound] += sign * b.Count
	}
	out := Histogram{Count: h.Count + sign*o.Count, Sum: h.Sum + sign*o.Sum}
	for ub, c := range counts {
		out.Buckets = append(out.Buckets, Bucket{UpperBound: ub, Count: c})
	}
	sort.Slice(out.Buckets, func(i, j int) bool { return out.Buckets[i].UpperBound < out.Buckets[j].UpperBound })
	return out
}
