// Package glance is the Glance operator as the shared bootstrap
// (common/framework/bootstrap) runs it: its scheme, its two controllers and its webhooks.
package glance

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/service"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/controller"
)

// Options are the operator's flags.
type Options = bootstrap.Options

// Operator is the Glance operator.
var Operator = bootstrap.Operator[*controller.GlanceReconciler]{
	Profile: controller.Profile, Group: glancev1.GroupVersion.Group, Periodic: []string{metrics.JobDBPurge},
	AddToScheme: glancev1.AddToScheme, Setup: setup, Observe: observe,
}

// setup builds the Glance controller first: it registers the field indexes
// the GlanceBackend controller uses.
func setup(ctx context.Context, mgr ctrl.Manager, base service.Reconciler, o *Options) (*controller.GlanceReconciler, error) {
	opts := managerconfig.ControllerOptions{MaxConcurrentReconciles: o.MaxConcurrentReconciles}
	r := &controller.GlanceReconciler{Reconciler: base}
	if err := r.SetupWithManager(ctx, mgr, opts); err != nil {
		return nil, err
	}
	backends := &controller.BackendReconciler{Client: mgr.GetClient(), Resolver: base.Resolver}
	if err := backends.SetupWithManager(mgr, opts); err != nil {
		return nil, err
	}
	if o.EnableWebhooks {
		if err := registerWebhooks(mgr); err != nil {
			return nil, err
		}
	}
	return r, nil
}
