package controller

import (
	"context"
	"fmt"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/secrets"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services;configmaps;secrets,verbs=get;list;watch;create;update;patch;delete
// The health probe under --probe-via-apiserver GETs the API Service through the API server.
// +kubebuilder:rbac:groups="",resources=services/proxy,verbs=get
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=networkpolicies,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=databases;users;grants,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=mariadbs,verbs=get;list;watch
// +kubebuilder:rbac:groups=external-secrets.io,resources=clustersecretstores;secretstores;externalsecrets,verbs=get;list;watch
// +kubebuilder:rbac:groups=scheduling.k8s.io,resources=priorityclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

// Options tune the controller.
type Options struct {
	MaxConcurrentReconciles int
}

// SetupWithManager indexes the references, registers the watches and builds
// the controller. A cluster without Gateway API gets no HTTPRoute watch.
func (r *PlacementReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager, opts Options) error {
	r.pipeline = pipeline.New(r.Metrics, steps...)
	kinds, err := operator.ProjectedKinds(mgr.GetScheme())
	if err != nil {
		return err
	}
	r.deletion = r.newFinalizeFlow(kinds)
	if err := addIndexes(ctx, mgr); err != nil {
		return err
	}
	served, err := targetcluster.KindServed(mgr.GetRESTMapper(), workload.HTTPRouteGVK)
	if err != nil {
		return err
	}
	r.GatewayAPI = served
	// Only the Placement watch passes the periodic resync; every other
	// watch drops it (operator.DropResyncs): one pass per CR per period.
	drop := builder.WithPredicates(operator.DropResyncs())
	b := ctrl.NewControllerManagedBy(mgr).
		Named("placement").
		For(&placementv1.Placement{}, builder.WithPredicates(PlacementEvents())).
		Owns(&corev1.Secret{}, builder.OnlyMetadata, drop).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(r.bySecret("")), drop).
		Watches(&mariadbv1alpha1.MariaDB{}, handler.EnqueueRequestsFromMapFunc(r.byMariaDB("")), drop).
		Watches(storeObject(secrets.ClusterSecretStoreGVK), handler.EnqueueRequestsFromMapFunc(r.byStore("")), drop).
		Watches(storeObject(secrets.SecretStoreGVK), handler.EnqueueRequestsFromMapFunc(r.byStore("")), drop).
		WithOptions(controllerOptions(opts))
	for _, kind := range append(operator.WorkloadKinds(), operator.MariaDBKinds()...) {
		b = b.Owns(kind, drop)
	}
	if served {
		b = b.Owns(&gatewayv1.HTTPRoute{}, drop)
	}
	c, err := b.Build(r)
	if err != nil {
		return fmt.Errorf("building placement controller: %w", err)
	}
	if r.Resolver != nil {
		r.Resolver.OnEngage = r.watchRemote(c)
	}
	return nil
}

// controllerOptions bound the error backoff at 30 s (operator.RateLimiter)
// instead of controller-runtime's 1000 s. The one workqueue serves the
// management cluster's watches and every target cluster's (watchRemote adds
// those to the same controller), so the limiter covers both.
func controllerOptions(opts Options) controller.Options {
	return controller.Options{
		MaxConcurrentReconciles: opts.MaxConcurrentReconciles,
		RateLimiter:             operator.RateLimiter[reconcile.Request](),
	}
}

func storeObject(gvk schema.GroupVersionKind) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}
