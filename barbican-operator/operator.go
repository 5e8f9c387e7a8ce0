// Package barbican is the Barbican operator as the shared bootstrap
// (common/framework/bootstrap) runs it: its scheme, its two controllers and its webhooks.
package barbican

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
	ctrl "sigs.k8s.io/controller-runtime"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/service"
)

// Options are the operator's flags.
type Options = bootstrap.Options

// Operator is the Barbican operator.
var Operator = bootstrap.Operator[*controller.BarbicanReconciler]{
	Profile: controller.Profile, Group: barbicanv1.GroupVersion.Group, Periodic: []string{metrics.JobDBClean},
	AddToScheme: barbicanv1.AddToScheme, Setup: setup, Observe: observe,
	Collectors: func(prefix string) []prometheus.Collector {
		return []prometheus.Collector{controller.NewRemints(prefix)}
	},
}

// StoreRecorderName is the reporting controller of the store events.
const StoreRecorderName = "barbicansecretstore-controller"

// setup builds the Barbican controller first: it registers the field
// indexes the store controller uses.
func setup(ctx context.Context, mgr ctrl.Manager, base service.Reconciler, o *Options) (*controller.BarbicanReconciler, error) {
	opts := managerconfig.ControllerOptions{MaxConcurrentReconciles: o.MaxConcurrentReconciles}
	r := &controller.BarbicanReconciler{Reconciler: base}
	if err := r.SetupWithManager(ctx, mgr, opts); err != nil {
		return nil, err
	}
	remints, err := register(controller.NewRemints(controller.Profile.Service + "_operator"))
	if err != nil {
		return nil, err
	}
	stores := &controller.StoreReconciler{
		Client: mgr.GetClient(), Scheme: mgr.GetScheme(), Recorder: mgr.GetEventRecorder(StoreRecorderName),
		Resolver: base.Resolver, Remints: remints,
	}
	if o.Resolve != nil {
		stores.Dial = o.Resolve.DialContext
	}
	if err := stores.SetupWithManager(mgr, opts); err != nil {
		return nil, err
	}
	if o.EnableWebhooks {
		if err := registerWebhooks(mgr); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// register registers c with the controller-runtime registry, reusing the
// collector a previous manager of the same process registered.
func register(c *prometheus.CounterVec) (*prometheus.CounterVec, error) {
	if err := crmetrics.Registry.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(*prometheus.CounterVec); ok {
				return existing, nil
			}
		}
		return nil, err
	}
	return c, nil
}
