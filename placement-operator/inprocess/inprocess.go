// Package inprocess lets a program outside this module (the benchmark
// harness in e2e/bench) build the Placement operator's real manager in its
// own process; internal/ packages cannot be imported from there.
package inprocess

import (
	"context"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/lib/observability"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
)

// Options are the operator's flags (see internal/manager).
type Options = manager.Options

// MetricsPrefix prefixes the operator's own metric names.
var MetricsPrefix = manager.Operator.MetricsPrefix()

// New builds the manager exactly as the binary does; Options.ProbeURL
// points the API health probe at a stand-in or an API the caller started.
func New(ctx context.Context, cfg *rest.Config, o *Options) (ctrl.Manager, error) {
	mgr, _, err := manager.New(ctx, cfg, o)
	return mgr, err
}

// Default applies the defaults the mutating webhook would, for a caller that
// creates Placements without the webhook installed.
func Default(p *placementv1.Placement) { webhook.Apply(p) }

// Observability describes the operator's dashboard and alerts (its chart's
// files/dashboard.json and files/prometheusrule.yaml).
func Observability() observability.Spec { return manager.Operator.Observability() }

// MetricNames are the names of every metric the operator registers.
func MetricNames() []string { return manager.Operator.MetricNames() }
