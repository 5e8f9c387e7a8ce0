package testenv

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// CountSeries counts the series of c whose kindLabel (placement, glance)
// is name and whose namespace is ns.
func CountSeries(t *testing.T, c prometheus.Collector, kindLabel, name, ns string) int {
	t.Helper()
	ch := make(chan prometheus.Metric, 64)
	go func() { c.Collect(ch); close(ch) }()
	n := 0
	for m := range ch {
		var d dto.Metric
		Must(t, m.Write(&d))
		labels := map[string]string{}
		for _, l := range d.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels[kindLabel] == name && labels["namespace"] == ns {
			n++
		}
	}
	return n
}
