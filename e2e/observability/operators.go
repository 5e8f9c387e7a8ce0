// Package observability names each operator's dashboard and rule file and
// what the operator registers, for the generator (cmd/observability) and the
// chart tests that check one against the other.
package observability

import (
	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	"github.com/c5c3/openstack-operators/common/lib/observability"
	glance "github.com/c5c3/openstack-operators/glance-operator"
	placement "github.com/c5c3/openstack-operators/placement-operator"
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
	{Chart: "placement-operator", Spec: placement.Operator.Observability, MetricNames: placement.Operator.MetricNames},
	{Chart: "glance-operator", Spec: glance.Operator.Observability, MetricNames: glance.Operator.MetricNames},
	{Chart: "barbican-operator", Spec: barbican.Operator.Observability, MetricNames: barbican.Operator.MetricNames},
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
