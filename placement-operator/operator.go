// Package placement is the Placement operator as the shared bootstrap
// (common/framework/bootstrap) runs it: its scheme, controller and webhooks.
package placement

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	pwebhook "github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
)

// Options are the operator's flags.
type Options = bootstrap.Options

// Operator is the Placement operator.
var Operator = bootstrap.Operator[*controller.PlacementReconciler]{
	Profile: controller.Profile, Group: placementv1.GroupVersion.Group, AddToScheme: placementv1.AddToScheme, Setup: setup,
}

func setup(ctx context.Context, mgr ctrl.Manager, base service.Reconciler, o *Options) (*controller.PlacementReconciler, error) {
	r := &controller.PlacementReconciler{Reconciler: base}
	if err := r.SetupWithManager(ctx, mgr, managerconfig.ControllerOptions{MaxConcurrentReconciles: o.MaxConcurrentReconciles}); err != nil {
		return nil, err
	}
	if !o.EnableWebhooks {
		return r, nil
	}
	cats, err := catalog.Load()
	if err != nil {
		return nil, fmt.Errorf("loading option catalogs: %w", err)
	}
	err = ctrl.NewWebhookManagedBy(mgr, &placementv1.Placement{}).
		WithDefaulter(pwebhook.Defaulter{}).
		WithValidator(&pwebhook.Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}).
		Complete()
	if err != nil {
		return nil, fmt.Errorf("registering webhooks: %w", err)
	}
	return r, nil
}

// Default applies the defaults the mutating webhook would, for a program
// that creates Placements without the webhook installed (the e2e suites,
// the bench).
func Default(p *placementv1.Placement) { pwebhook.Apply(p) }
