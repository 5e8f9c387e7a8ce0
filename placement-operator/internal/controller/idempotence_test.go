package controller_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// A pass over unchanged inputs must send no mutating request at all.
func TestSecondIdenticalPassWritesNothing(t *testing.T) {
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	time.Sleep(2 * time.Second) // let the passes triggered by our own writes settle

	passes := func() uint64 { return histogramCount(t, "NetworkPolicy") }
	startPasses, startWrites := passes(), writes.snapshot()
	poke(t, ns, "placement")
	eventually(t, "a full pass ran", func() error {
		if passes() == startPasses {
			return errorf("no full pass yet")
		}
		return nil
	})
	time.Sleep(time.Second)
	end := writes.snapshot()
	for k, v := range end {
		if v != startWrites[k] && strings.Contains(k, "/namespaces/"+ns+"/") {
			t.Errorf("pass over unchanged inputs wrote: %s (%d times)", k, v-startWrites[k])
		}
	}
}

// histogramCount is how many times a step has run.
func histogramCount(t *testing.T, step string) uint64 {
	t.Helper()
	var m dto.Metric
	must(t, reconciler.Metrics.Duration.WithLabelValues(step).(prometheus.Metric).Write(&m))
	return m.GetHistogram().GetSampleCount()
}
