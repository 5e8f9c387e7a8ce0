// Package inprocess lets a program outside this module (the e2e suites)
// build the Barbican operator's real manager in its own process and name
// what a managed OpenBao instance must hold; internal/ packages cannot be
// imported from there.
package inprocess

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/manager"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/webhook"
	"github.com/c5c3/openstack-operators/common/lib/observability"
)

// Options are the operator's flags (see internal/manager); Options.ProbeURL
// points the API health probe at an API the caller started, Options.Resolve
// the managed instances' Service names at servers the caller started.
type Options = manager.Options

// MetricsPrefix prefixes the operator's own metric names.
var MetricsPrefix = manager.Operator.MetricsPrefix()

// New builds the manager exactly as the binary does.
func New(ctx context.Context, cfg *rest.Config, o *Options) (ctrl.Manager, error) {
	mgr, _, err := manager.New(ctx, cfg, o)
	return mgr, err
}

// Default applies the defaults the mutating webhook would, for a caller that
// creates Barbicans without the webhook installed.
func Default(b *barbicanv1.Barbican) { webhook.Apply(b) }

// InstanceGVK is the kind of a managed store's instance (OpenBaoCluster).
var InstanceGVK schema.GroupVersionKind = controller.InstanceGVK

// ProvisionerName is the ServiceAccount whose token the operator logs in
// to a managed instance with.
func ProvisionerName(instance string) string { return controller.ProvisionerName(instance) }

// InstanceCASecretName is the Secret holding a managed instance's CA.
func InstanceCASecretName(instance string) string { return controller.InstanceCASecretName(instance) }

// InstanceCRDDir holds the OpenBaoCluster CRD the tests load (relative to
// the repository root).
const InstanceCRDDir = "barbican-operator/internal/controller/testdata/crd"

// StoreCredsHash is the pod-template annotation digesting the default
// store's AppRole secret ID: a re-mint changes it and rolls the pods.
const StoreCredsHash = render.StoreCredsHash

// Observability describes the operator's dashboard and alerts (its chart's
// files/dashboard.json and files/prometheusrule.yaml).
func Observability() observability.Spec { return manager.Operator.Observability() }

// MetricNames are the names of every metric the operator registers.
func MetricNames() []string {
	return manager.Operator.MetricNames(controller.NewRemints(MetricsPrefix))
}
