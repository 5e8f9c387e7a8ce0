package webhook

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
)

// Register adds three webhooks to the manager's server: defaulting and
// validation of Barbican, validation of BarbicanSecretStore. Both validators
// read through mgr.GetAPIReader(): the manager caches neither
// PriorityClasses nor, at admission time, a store applied in the same
// batch as this one.
func Register(mgr ctrl.Manager, cats *extraconfig.Catalogs) error {
	barbican := &Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}
	if err := ctrl.NewWebhookManagedBy(mgr, &barbicanv1.Barbican{}).
		WithDefaulter(Defaulter).WithValidator(barbican.Hook()).Complete(); err != nil {
		return fmt.Errorf("registering Barbican webhooks: %w", err)
	}
	stores := &StoreValidator{Reader: mgr.GetAPIReader()}
	if err := ctrl.NewWebhookManagedBy(mgr, &barbicanv1.BarbicanSecretStore{}).
		WithValidator(stores.Hook()).Complete(); err != nil {
		return fmt.Errorf("registering BarbicanSecretStore webhook: %w", err)
	}
	return nil
}
