package watch

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/source"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// Local adds the shared watch set of the management cluster to b: the CR
// (CREvents), the owned Secrets and every owned kind in owned, referenced
// Secrets (metadata only), MariaDB clusters, both secret store kinds, the
// Jobs its CronJobs run (ByPeriodicRun), and
// HTTPRoutes when httpRoutes (the kind is served). Every watch but the CR's
// drops resyncs (DropResyncs): one pass per CR per resync period.
func Local(b *builder.Builder, m Mapper, owned []client.Object, httpRoutes bool) *builder.Builder {
	drop := builder.WithPredicates(DropResyncs())
	b = b.For(m.Object, builder.WithPredicates(CREvents())).
		Owns(&corev1.Secret{}, builder.OnlyMetadata, drop).
		WatchesMetadata(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(m.BySecret("")), drop).
		Watches(&mariadbv1alpha1.MariaDB{}, handler.EnqueueRequestsFromMapFunc(m.ByMariaDB("")), drop).
		Watches(StoreObject(secrets.ClusterSecretStoreGVK), handler.EnqueueRequestsFromMapFunc(m.ByStore("")), drop).
		Watches(StoreObject(secrets.SecretStoreGVK), handler.EnqueueRequestsFromMapFunc(m.ByStore("")), drop).
		Watches(&batchv1.Job{}, handler.EnqueueRequestsFromMapFunc(m.ByPeriodicRun("")), drop)
	for _, kind := range append(owned, managerconfig.MariaDBKinds()...) {
		b = b.Owns(kind, drop)
	}
	if httpRoutes {
		b = b.Owns(&gatewayv1.HTTPRoute{}, drop)
	}
	return b
}

// Remote returns the resolver's OnEngage hook: on a newly engaged target
// cluster it adds to c watches on the owned kinds (mapped by ownership
// labels) and on the inputs read there (MariaDB, Secrets, both store
// kinds), each reaching only the CRs that name that cluster. Secrets are
// both: referenced credentials and the owned <cr>-db-connection share one
// metadata-only informer (ByRemoteSecret). HTTPRoutes are not watched
// there: the kind may not be served. Like the local watches they drop
// resyncs: the CR's watch on the management cluster carries the resync.
// extra adds the operator's own sources on that cluster; may be nil.
func Remote(c controller.Controller, m Mapper, owned []client.Object,
	extra func(name string, cl cluster.Cluster) []source.Source) func(string, cluster.Cluster) error {
	return func(name string, cl cluster.Cluster) error {
		byOwner := handler.EnqueueRequestsFromMapFunc(m.ByOwnerLabels(name))
		drop := DropResyncs()
		var sources []source.Source
		for _, kind := range append(owned, managerconfig.MariaDBKinds()...) {
			sources = append(sources, source.Kind(cl.GetCache(), kind, byOwner, drop))
		}
		sources = append(sources,
			source.Kind(cl.GetCache(), client.Object(&mariadbv1alpha1.MariaDB{}), handler.EnqueueRequestsFromMapFunc(m.ByMariaDB(name)), drop),
			source.Kind(cl.GetCache(), client.Object(SecretMetadata()), handler.EnqueueRequestsFromMapFunc(m.ByRemoteSecret(name)), drop),
			source.Kind(cl.GetCache(), client.Object(StoreObject(secrets.ClusterSecretStoreGVK)), handler.EnqueueRequestsFromMapFunc(m.ByStore(name)), drop),
			source.Kind(cl.GetCache(), client.Object(StoreObject(secrets.SecretStoreGVK)), handler.EnqueueRequestsFromMapFunc(m.ByStore(name)), drop),
		)
		if extra != nil {
			sources = append(sources, extra(name, cl)...)
		}
		for _, src := range sources {
			if err := c.Watch(src); err != nil {
				return err
			}
		}
		return nil
	}
}

// SecretMetadata is an empty metadata-only Secret, for metadata watches.
func SecretMetadata() *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	return m
}

// StoreObject is an empty unstructured secret store of kind gvk: ESO's Go
// API does not build with our controller-runtime.
func StoreObject(gvk schema.GroupVersionKind) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	return u
}
