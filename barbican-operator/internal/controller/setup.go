package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/attach"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/watch"
)

// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans;barbicansecretstores,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans/status;barbicansecretstores/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=openbao.org,resources=openbaoclusters,verbs=get;list;watch

// Field indexes over BarbicanSecretStores, registered by the Barbican
// controller, which must therefore be set up before the store controller.
const (
	// IndexBarbicanRef holds spec.barbicanRef.name.
	IndexBarbicanRef = "spec.barbicanRef.name"
	// IndexStoreSecret holds the Secrets a store's rendering reads: a
	// brownfield store's credentials and CA bundle, and a managed store's
	// minted <store>-approle, so that a re-mint wakes the parent Barbican
	// (barbican-api.md §9.3) on whichever cluster the Secret lives.
	IndexStoreSecret = "barbican.storeSecrets"
	// IndexInstanceRef holds spec.openBao.instanceRef.name.
	IndexInstanceRef = "spec.openBao.instanceRef.name"
)

// Mapper maps watched objects to Barbicans: directly referenced Secrets, and
// the Secrets an attached store reads.
func (r *BarbicanReconciler) Mapper() watch.Mapper {
	m := watch.Mapper{Client: r.Client, Object: &barbicanv1.Barbican{}, List: &barbicanv1.BarbicanList{}, Kind: r.Profile.Kind, ManagedBy: r.Profile.ManagedBy}
	m.AlsoBySecret = func(ctx context.Context, cluster string, secret client.Object) []reconcile.Request {
		var out []reconcile.Request
		for _, req := range r.storesBySecret(ctx, secret) {
			var b barbicanv1.Barbican
			if err := r.Client.Get(ctx, req.NamespacedName, &b); err == nil && b.Spec.TargetClusterName() == cluster {
				out = append(out, req)
			}
		}
		return out
	}
	return m
}

// SetupWithManager indexes the references (the store controller's too),
// registers the watches and builds the controller. A store's status flip
// (CredentialsReady) and its deletion are what wake the aggregation: its
// watch has no generation filter, only resyncs are dropped.
func (r *BarbicanReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager, opts operator.ControllerOptions) error {
	r.pipeline = pipeline.New(r.Metrics, steps...)
	if err := r.Init(r.pipeline.Conditions()); err != nil {
		return err
	}
	if err := addIndexes(ctx, mgr); err != nil {
		return err
	}
	stores := func(b *builder.Builder) *builder.Builder {
		return b.Watches(&barbicanv1.BarbicanSecretStore{}, handler.EnqueueRequestsFromMapFunc(parentOf), builder.WithPredicates(watch.DropResyncs()))
	}
	return watch.Setup(mgr, &r.Reconciler, "barbican", r.Mapper(), opts, stores, r)
}

func addIndexes(ctx context.Context, mgr ctrl.Manager) error {
	idx := mgr.GetFieldIndexer()
	if err := watch.AddIndexes(ctx, idx, &barbicanv1.Barbican{}); err != nil {
		return err
	}
	store := &barbicanv1.BarbicanSecretStore{}
	if err := idx.IndexField(ctx, store, IndexBarbicanRef, func(o client.Object) []string {
		return []string{o.(*barbicanv1.BarbicanSecretStore).Spec.BarbicanRef.Name}
	}); err != nil {
		return err
	}
	if err := idx.IndexField(ctx, store, IndexStoreSecret, func(o client.Object) []string {
		in := inputsOf(o.(*barbicanv1.BarbicanSecretStore))
		if in.credentials == "" {
			return nil
		}
		if in.ca != "" && !o.(*barbicanv1.BarbicanSecretStore).Managed() {
			return []string{in.credentials, in.ca}
		}
		return []string{in.credentials}
	}); err != nil {
		return err
	}
	return idx.IndexField(ctx, store, IndexInstanceRef, func(o client.Object) []string {
		if st := o.(*barbicanv1.BarbicanSecretStore); st.Managed() {
			return []string{st.Spec.OpenBao.InstanceRef.Name}
		}
		return nil
	})
}

// parentOf maps a store to the Barbican it names.
func parentOf(_ context.Context, o client.Object) []reconcile.Request {
	s := o.(*barbicanv1.BarbicanSecretStore)
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: s.Namespace, Name: s.Spec.BarbicanRef.Name}}}
}

// storesBySecret maps a Secret to the Barbicans whose attached stores read it.
func (r *BarbicanReconciler) storesBySecret(ctx context.Context, secret client.Object) []reconcile.Request {
	var list barbicanv1.BarbicanSecretStoreList
	if err := r.Client.List(ctx, &list, client.InNamespace(secret.GetNamespace()), client.MatchingFields{IndexStoreSecret: secret.GetName()}); err != nil {
		log.FromContext(ctx).Error(err, "listing BarbicanSecretStores for a Secret event")
		return nil
	}
	var out []reconcile.Request
	for i := range list.Items {
		out = attach.AddRequest(out, parentOf(ctx, &list.Items[i])[0])
	}
	return out
}
