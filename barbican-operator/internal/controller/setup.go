package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/watch"
)

// The Barbicans and BarbicanSecretStores the operator reconciles: read and
// watched, their finalizers and Job-UID annotations patched, their status
// written.
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans;barbicansecretstores,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans/status;barbicansecretstores/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=barbican.openstack.c5c3.io,resources=barbicans/finalizers,verbs=update

// The DBClean CronJob of each Barbican (its runs are Jobs, in common/framework/rbac).
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete

// The OpenBaoCluster a managed BarbicanSecretStore names: whether it is
// available, and its Service and CA, through which the operator mints the
// store's AppRole credentials. Read only.
// +kubebuilder:rbac:groups=openbao.org,resources=openbaoclusters,verbs=get;list;watch

// Field indexes over BarbicanSecretStores, registered by the Barbican
// controller, which must therefore be set up before the store controller.
const (
	// IndexBarbicanRef holds spec.barbicanRef.name.
	IndexBarbicanRef = "spec.barbicanRef.name"
	// IndexStoreSecret holds the Secrets a store's rendering reads: its
	// credentials (a managed store's minted <store>-approle, so that a
	// re-mint wakes the parent Barbican, barbican-api.md §9.3) and its CA
	// (a brownfield bundle, a managed instance's <instance>-tls-ca), on
	// whichever cluster the Secret lives.
	IndexStoreSecret = "barbican.storeSecrets"
	// IndexInstanceRef holds spec.openBao.instanceRef.name.
	IndexInstanceRef = "spec.openBao.instanceRef.name"
)

// parents wires the stores to their Barbican: the store watch, a Secret a
// store reads (its AppRole pair, its CA) mapped to the Barbican, and a
// store's target cluster, read through c.
func parents(c client.Reader) attach.Parents {
	return attach.Parents{
		Client: c, ParentIndex: IndexBarbicanRef, SecretIndex: IndexStoreSecret,
		Secrets: func(o client.Object) []string {
			in := inputsOf(o.(*barbicanv1.BarbicanSecretStore))
			if in.credentials == "" {
				return nil
			}
			if in.ca != "" {
				return []string{in.credentials, in.ca}
			}
			return []string{in.credentials}
		},
		NewList:       func() client.ObjectList { return &barbicanv1.BarbicanSecretStoreList{} },
		NewChild:      func() client.Object { return &barbicanv1.BarbicanSecretStore{} },
		NewParent:     func() client.Object { return &barbicanv1.Barbican{} },
		ParentName:    func(o client.Object) string { return o.(*barbicanv1.BarbicanSecretStore).Spec.BarbicanRef.Name },
		TargetCluster: func(o client.Object) string { return o.(*barbicanv1.Barbican).Spec.TargetClusterName() },
	}
}

// Mapper maps watched objects to Barbicans: directly referenced Secrets, and
// the Secrets an attached store reads.
func (r *BarbicanReconciler) Mapper() watch.Mapper {
	return watch.Mapper{Client: r.Client, Object: &barbicanv1.Barbican{}, List: &barbicanv1.BarbicanList{},
		Kind: r.Profile.Kind, ManagedBy: r.Profile.ManagedBy, AlsoBySecret: parents(r.Client).BySecret}
}

// SetupWithManager indexes the references (the store controller's too),
// registers the watches and builds the controller. A store's status flip
// (CredentialsReady) and its deletion are what wake the aggregation: its
// watch has no generation filter, only resyncs are dropped.
func (r *BarbicanReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager, opts managerconfig.ControllerOptions) error {
	r.pipeline = pipeline.New(r.Metrics, steps...)
	if err := r.Init(r.pipeline.Conditions()); err != nil {
		return err
	}
	if err := addIndexes(ctx, mgr, r.Client); err != nil {
		return err
	}
	stores := func(b *builder.Builder) *builder.Builder {
		return parents(r.Client).Watch(b, &barbicanv1.BarbicanSecretStore{})
	}
	return watch.Setup(mgr, &r.Reconciler, "barbican", r.Mapper(), opts, stores, r)
}

func addIndexes(ctx context.Context, mgr ctrl.Manager, c client.Reader) error {
	idx := mgr.GetFieldIndexer()
	if err := watch.AddIndexes(ctx, idx, &barbicanv1.Barbican{}); err != nil {
		return err
	}
	if err := parents(c).AddIndexes(ctx, idx); err != nil {
		return err
	}
	return idx.IndexField(ctx, &barbicanv1.BarbicanSecretStore{}, IndexInstanceRef, func(o client.Object) []string {
		if st := o.(*barbicanv1.BarbicanSecretStore); st.Managed() {
			return []string{st.Spec.OpenBao.InstanceRef.Name}
		}
		return nil
	})
}
