package watch

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Setup builds the controller name of a service reconciler do, whose shared
// part is base: it probes the management cluster for Gateway API (a cluster
// without it gets no HTTPRoute watch), registers the shared watch set of m
// (Local), extra's own watches, and on every target cluster the resolver
// engages, the remote watch set (Remote).
func Setup(mgr ctrl.Manager, base *service.Reconciler, name string, m Mapper, opts managerconfig.ControllerOptions,
	extra func(*builder.Builder) *builder.Builder, do reconcile.Reconciler) error {
	served, err := targetcluster.KindServed(mgr.GetRESTMapper(), workload.HTTPRouteGVK)
	if err != nil {
		return err
	}
	base.GatewayAPI = served
	b := Local(ctrl.NewControllerManagedBy(mgr).Named(name), m, base.Profile.Owned, served)
	if extra != nil {
		b = extra(b)
	}
	c, err := b.WithOptions(opts.Controller()).Build(do)
	if err != nil {
		return fmt.Errorf("building %s controller: %w", name, err)
	}
	if base.Resolver != nil {
		base.Resolver.AlsoOnEngage(Remote(c, m, base.Profile.Owned, nil))
	}
	return nil
}
