package controller

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Re-mint triggers of a managed store's secret ID.
const (
	// TriggerProactive: refreshed before two thirds of its TTL lapsed.
	TriggerProactive = "proactive"
	// TriggerReactive: the server had already rejected the held pair.
	TriggerReactive = "reactive"
)

// NewRemints builds <prefix>_secretstore_remints_total, labelled by store,
// namespace and trigger; the initial mint is not counted. A growing
// reactive count means the schedule keeps arriving too late.
func NewRemints(prefix string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: prefix + "_secretstore_remints_total",
		Help: "Re-mints of a managed store's AppRole secret ID, by trigger (proactive: before 2/3 of its TTL; reactive: after the server rejected it).",
	}, []string{"store", "namespace", "trigger"})
}
