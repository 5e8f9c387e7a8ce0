package webhook

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Register serves the defaulting and validating webhooks of both kinds.
// Lookups read the API server, not the cache: the sibling-default rule needs
// a backend created a moment ago, and PriorityClasses are not watched.
func Register(mgr ctrl.Manager, cats *extraconfig.Catalogs) error {
	glance := &Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}
	if err := ctrl.NewWebhookManagedBy(mgr, &glancev1.Glance{}).
		WithDefaulter(Defaulter).WithValidator(glance.Hook()).Complete(); err != nil {
		return fmt.Errorf("registering Glance webhooks: %w", err)
	}
	backends := &BackendValidator{Reader: mgr.GetAPIReader()}
	if err := ctrl.NewWebhookManagedBy(mgr, &glancev1.GlanceBackend{}).
		WithDefaulter(BackendDefaulter).WithValidator(backends.Hook()).Complete(); err != nil {
		return fmt.Errorf("registering GlanceBackend webhooks: %w", err)
	}
	return nil
}
