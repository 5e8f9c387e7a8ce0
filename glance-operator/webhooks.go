package glance

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"

	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/glance-operator/internal/webhook"
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
// that creates Glances without the webhook installed (the e2e suites, the
// bench).
func Default(g *glancev1.Glance) { webhook.Apply(g) }

// DefaultBackend is Default for a GlanceBackend.
func DefaultBackend(b *glancev1.GlanceBackend) { webhook.ApplyBackend(b) }
