package controller

import (
	"context"

	"github.com/c5c3/openstack-operators/common/workload"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"

	"github.com/c5c3/openstack-operators/common/finalize"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// remoteKinds are the kinds a Placement projects onto a target cluster.
var remoteKinds = []finalize.RemoteKind{
	appsv1.SchemeGroupVersion.WithKind("Deployment"),
	corev1.SchemeGroupVersion.WithKind("Service"),
	corev1.SchemeGroupVersion.WithKind("ConfigMap"),
	corev1.SchemeGroupVersion.WithKind("Secret"),
	batchv1.SchemeGroupVersion.WithKind("Job"),
	policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
	autoscalingv2.SchemeGroupVersion.WithKind("HorizontalPodAutoscaler"),
	networkingv1.SchemeGroupVersion.WithKind("NetworkPolicy"),
	workload.HTTPRouteGVK,
	mariadbv1alpha1.GroupVersion.WithKind("Database"),
	mariadbv1alpha1.GroupVersion.WithKind("User"),
	mariadbv1alpha1.GroupVersion.WithKind("Grant"),
}

// newFinalizeFlow wires the shared deletion flow to this reconciler.
func (r *PlacementReconciler) newFinalizeFlow() *finalize.Flow {
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
