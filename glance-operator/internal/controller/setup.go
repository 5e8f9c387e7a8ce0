package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/watch"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// The Glances and GlanceBackends the operator reconciles: read and watched,
// their finalizers and Job-UID annotations patched, their status written.
// +kubebuilder:rbac:groups=glance.openstack.c5c3.io,resources=glances;glancebackends,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=glance.openstack.c5c3.io,resources=glances/status;glancebackends/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=glance.openstack.c5c3.io,resources=glances/finalizers,verbs=update

// The DBPurge CronJob of each Glance (its runs are Jobs, in common/framework/rbac).
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete

// Field indexes over GlanceBackends, registered by the Glance controller,
// which must therefore be set up before the GlanceBackend controller.
const (
	// IndexGlanceRef holds spec.glanceRef.name.
	IndexGlanceRef = "spec.glanceRef.name"
	// IndexBackendSecret holds spec.s3.credentialsSecretRef.name.
	IndexBackendSecret = "spec.s3.credentialsSecretRef.name"
)

// parents wires the backends to their Glance: the backend watch, a
// backend's credentials Secret mapped to the Glance, and a backend's target
// cluster, read through c.
func parents(c client.Reader) attach.Parents {
	return attach.Parents{
		Client: c, ParentIndex: IndexGlanceRef, SecretIndex: IndexBackendSecret,
		Secrets: func(o client.Object) []string {
			if s3 := o.(*glancev1.GlanceBackend).Spec.S3; s3 != nil {
				return []string{s3.CredentialsSecretRef.Name}
			}
			return nil
		},
		NewList:       func() client.ObjectList { return &glancev1.GlanceBackendList{} },
		NewChild:      func() client.Object { return &glancev1.GlanceBackend{} },
		NewParent:     func() client.Object { return &glancev1.Glance{} },
		ParentName:    func(o client.Object) string { return o.(*glancev1.GlanceBackend).Spec.GlanceRef.Name },
		TargetCluster: func(o client.Object) string { return o.(*glancev1.Glance).Spec.TargetClusterName() },
	}
}

// Mapper maps watched objects to Glances: directly referenced Secrets, and
// an attached backend's credentials Secret.
func (r *GlanceReconciler) Mapper() watch.Mapper {
	return watch.Mapper{Client: r.Client, Object: &glancev1.Glance{}, List: &glancev1.GlanceList{},
		Kind: r.Profile.Kind, ManagedBy: r.Profile.ManagedBy, AlsoBySecret: parents(r.Client).BySecret}
}

// SetupWithManager indexes the references (the GlanceBackend controller's
// too), registers the watches and builds the controller. A backend's status
// flip (CredentialsReady) is what wakes the aggregation: its watch has no
// generation filter, only resyncs are dropped.
func (r *GlanceReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager, opts managerconfig.ControllerOptions) error {
	r.pipeline = pipeline.New(r.Metrics, steps...)
	if err := r.Init(r.pipeline.Conditions()); err != nil {
		return err
	}
	if err := addIndexes(ctx, mgr, r.Client); err != nil {
		return err
	}
	backends := func(b *builder.Builder) *builder.Builder {
		return parents(r.Client).Watch(b, &glancev1.GlanceBackend{})
	}
	return watch.Setup(mgr, &r.Reconciler, "glance", r.Mapper(), opts, backends, r)
}

func addIndexes(ctx context.Context, mgr ctrl.Manager, c client.Reader) error {
	idx := mgr.GetFieldIndexer()
	if err := watch.AddIndexes(ctx, idx, &glancev1.Glance{}); err != nil {
		return err
	}
	return parents(c).AddIndexes(ctx, idx)
}
