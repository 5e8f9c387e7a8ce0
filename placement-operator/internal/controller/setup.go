package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/watch"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// The Placements the operator reconciles: read and watched, their finalizer
// and Job-UID annotations patched, their status written.
// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=placement.openstack.c5c3.io,resources=placements/finalizers,verbs=update

// Mapper maps watched objects to Placements.
func (r *PlacementReconciler) Mapper() watch.Mapper {
	return watch.Mapper{Client: r.Client, Object: &placementv1.Placement{}, List: &placementv1.PlacementList{}, Kind: r.Profile.Kind, ManagedBy: r.Profile.ManagedBy}
}

// SetupWithManager indexes the references, registers the watches and builds
// the controller.
func (r *PlacementReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager, opts managerconfig.ControllerOptions) error {
	r.pipeline = pipeline.New(r.Metrics, steps...)
	if err := r.Init(r.pipeline.Conditions()); err != nil {
		return err
	}
	if err := watch.AddIndexes(ctx, mgr.GetFieldIndexer(), &placementv1.Placement{}); err != nil {
		return err
	}
	return watch.Setup(mgr, &r.Reconciler, "placement", r.Mapper(), opts, nil, r)
}
