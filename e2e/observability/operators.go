// Package observability names each operator's dashboard and rule file and
// what the operator registers, for the generator (cmd/observability) and the
// chart tests that check one against the other.
package observability

import (
	barbican "github.com/c5c3/openstack-operators/barbican-operator/inprocess"
	"github.com/c5c3/openstack-operators/common/lib/observability"
	glance "github.com/c5c3/openstack-operators/glance-operator/inprocess"
	placement "github.com/c5c3/openstack-operators/placement-operator/inprocess"
)

// File names under a chart's files/.
const (
	DashboardFile = "dashboard.json"
	RulesFile     = "prometheusrule.yaml"
)

// Operator is one operator's chart and its own account of its metrics.
type Operator struct {
	Chart       string
	Spec        func() observability.Spec
	MetricNames func() []string
}

// Operators are every operator with a chart.
var Operators = []Operator{
	{Chart: "placement-operator", Spec: placement.Observability, MetricNames: placement.MetricNames},
	{Chart: "glance-operator", Spec: glance.Observability, MetricNames: glance.MetricNames},
	{Chart: "barbican-operator", Spec: barbican.Observability, MetricNames: barbican.MetricNames},
}

// Files are the chart files of a spec by name.
func Files(s observability.Spec) (map[string][]byte, error) {
	dash, err := s.DashboardJSON()
	if err != nil {
		return nil, err
	}
	rules, err := s.RuleFileYAML()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{DashboardFile: dash, RulesFile: rules}, nil
}
