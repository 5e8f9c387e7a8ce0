package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/finalize"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// newFinalizeFlow wires the shared deletion flow to this reconciler.
func (r *PlacementReconciler) newFinalizeFlow(remoteKinds []finalize.RemoteKind) *finalize.Flow {
	return &finalize.Flow{
		Client:        r.Client,
		Recorder:      r.Recorder,
		Finalizer:     placementv1.Finalizer,
		Kind:          "Placement",
		AbandonGrace:  r.AbandonGrace,
		RemoteKinds:   remoteKinds,
		SubConditions: SubConditions(),
		OnRelease: func(key types.NamespacedName) {
			r.Metrics.DropCR(key.Name, key.Namespace)
			r.Probe.Evict(key)
		},
	}
}

func (r *PlacementReconciler) finalize(ctx context.Context, p *placementv1.Placement) (ctrl.Result, error) {
	return r.deletion.Run(ctx, p, p.Spec.TargetClusterRef != nil, func(ctx context.Context) (targetcluster.Target, error) {
		return r.resolve(ctx, p)
	})
}

func conditionTrue(p *placementv1.Placement, t string) bool {
	return meta.IsStatusConditionTrue(p.Status.Conditions, t)
}
