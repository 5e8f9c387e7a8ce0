// Package inprocess lets a program outside this module (the e2e suites)
// build the Glance operator's real manager in its own process; internal/
// packages cannot be imported from there.
package inprocess

import (
	"context"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/lib/observability"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/manager"
	"github.com/c5c3/openstack-operators/glance-operator/internal/webhook"
)

// Options are the operator's flags (see internal/manager); Options.ProbeURL
// points the API health probe at an API the caller started.
type Options = manager.Options

// MetricsPrefix prefixes the operator's own metric names.
var MetricsPrefix = manager.Operator.MetricsPrefix()

// New builds the manager exactly as the binary does.
func New(ctx context.Context, cfg *rest.Config, o *Options) (ctrl.Manager, error) {
	mgr, _, err := manager.New(ctx, cfg, o)
	return mgr, err
}

// Default applies the defaults the mutating webhook would, for a caller that
// creates Glances without the webhook installed.
func Default(g *glancev1.Glance) { webhook.Apply(g) }

// DefaultBackend is Default for a GlanceBackend.
func DefaultBackend(b *glancev1.GlanceBackend) { webhook.ApplyBackend(b) }

// Observability describes the operator's dashboard and alerts (its chart's
// files/dashboard.json and files/prometheusrule.yaml).
func Observability() observability.Spec { return manager.Operator.Observability() }

// MetricNames are the names of every metric the operator registers.
func MetricNames() []string { return manager.Operator.MetricNames() }
