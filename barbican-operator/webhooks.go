package barbican

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/webhook"
)

// registerWebhooks serves the webhooks of both kinds with the embedded
// option catalogs; a catalog that does not load stops the start-up.
func registerWebhooks(mgr ctrl.Manager) error {
	cats, err := catalog.Load()
	if err != nil {
		return fmt.Errorf("loading option catalogs: %w", err)
	}
	return webhook.Register(mgr, cats)
}

// Default applies the defaults the mutating webhook would, for a program
// that creates Barbicans without the webhook installed (the e2e suites,
// the bench).
func Default(b *barbicanv1.Barbican) { webhook.Apply(b) }
