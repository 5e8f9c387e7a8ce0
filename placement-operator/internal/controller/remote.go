package controller

import (
	"context"
	"slices"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/secrets"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// watchRemote adds, on a newly engaged target cluster, watches on the
// children (mapped by ownership labels) and on the inputs read there (MariaDB,
// Secrets, both store kinds), each reaching only the Placements that name
// that cluster. Secrets are both: referenced credentials and the owned
// <cr>-db-connection share one metadata-only informer (byRemoteSecret). HTTPRoutes are not watched there: the kind may not be served.
// Like the local watches, they drop resync-only updates: the Placement
// watch on the management cluster carries the periodic resync.
func (r *PlacementReconciler) watchRemote(c controller.Controller) func(string, cluster.Cluster) error {
	return func(name string, cl cluster.Cluster) error {
		owned := handler.EnqueueRequestsFromMapFunc(r.byOwnerLabels(name))
		drop := operator.DropResyncs()
		var sources []source.Source
		for _, kind := range append(operator.WorkloadKinds(), operator.MariaDBKinds()...) {
			sources = append(sources, source.Kind(cl.GetCache(), kind, owned, drop))
		}
		sources = append(sources,
			source.Kind(cl.GetCache(), client.Object(&mariadbv1alpha1.MariaDB{}), handler.EnqueueRequestsFromMapFunc(r.byMariaDB(name)), drop),
			source.Kind(cl.GetCache(), client.Object(secretMetadata()), handler.EnqueueRequestsFromMapFunc(r.byRemoteSecret(name)), drop),
			source.Kind(cl.GetCache(), client.Object(storeObject(secrets.ClusterSecretStoreGVK)), handler.EnqueueRequestsFromMapFunc(r.byStore(name)), drop),
			source.Kind(cl.GetCache(), client.Object(storeObject(secrets.SecretStoreGVK)), handler.EnqueueRequestsFromMapFunc(r.byStore(name)), drop),
		)
		for _, src := range sources {
			if err := c.Watch(src); err != nil {
				return err
			}
		}
		return nil
	}
}

func secretMetadata() *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	return m
}

// byRemoteSecret maps a Secret on a target cluster to the Placements naming
// that cluster that reference it (bySecret) and to the Placement owning it by
// ownership labels, which the trimmed Secret cache keeps
// (operator.TrimSecretMetadata): a hand edit or deletion of <cr>-db-connection
// there reaches its Placement at once, as Owns does on the management cluster.
func (r *PlacementReconciler) byRemoteSecret(cluster string) func(context.Context, client.Object) []reconcile.Request {
	referenced, owned := r.bySecret(cluster), r.byOwnerLabels(cluster)
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		out := referenced(ctx, o)
		for _, req := range owned(ctx, o) {
			if !slices.Contains(out, req) {
				out = append(out, req)
			}
		}
		return out
	}
}

// byOwnerLabels maps a remote child to its Placement when that Placement names cluster.
func (r *PlacementReconciler) byOwnerLabels(cluster string) func(context.Context, client.Object) []reconcile.Request {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		l := o.GetLabels()
		if l[targetcluster.LabelOwnerKind] != "Placement" {
			return nil
		}
		key := types.NamespacedName{Namespace: l[targetcluster.LabelOwnerNamespace], Name: l[targetcluster.LabelOwnerName]}
		var p placementv1.Placement
		if err := r.Client.Get(ctx, key, &p); err != nil || targetName(&p) != cluster {
			return nil
		}
		return []reconcile.Request{{NamespacedName: key}}
	}
}
