package service

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// ApplyDeployment ensures the API Deployment rendered as desired, its
// Service and its PDB, narrows the Service selector once the rollout
// converged, sets DeploymentReady and stamps status.endpoint when it turns
// True. It returns the Deployment as the cluster has it (nil while it is
// being recreated for a changed selector).
func (r *Reconciler) ApplyDeployment(ctx context.Context, s *Scope, desired *appsv1.Deployment) (*appsv1.Deployment, pipeline.Outcome, error) {
	spec := s.Spec()
	// Ensure leaves the Deployment as the cluster has it in desired, status
	// included; a changed (immutable) selector replaces it instead.
	why, err := apply.EnsureReplacing(ctx, s.Target.Client, s.Owner, desired, keepReplicas(spec.Autoscaling != nil), workload.SelectorChanged)
	if err != nil {
		return nil, pipeline.Continue(), err
	}
	if why != "" {
		s.SetFalse(conditions.TypeDeploymentReady, conditions.ReasonWaitingForDeployment,
			fmt.Sprintf("Deployment %s deleted to be recreated: %s", desired.Name, why))
		return nil, pipeline.RequeueAfter(RequeueRollout), nil
	}
	live := desired
	narrowed, err := serviceNarrowed(ctx, s, live)
	if err != nil {
		return nil, pipeline.Continue(), err
	}
	if _, err := apply.Ensure(ctx, s.Target.Client, s.Owner, workload.Service(s.ID, r.Profile.APIPort, narrowed), keepService); err != nil {
		return nil, pipeline.Continue(), err
	}
	if _, err := apply.Ensure(ctx, s.Target.Client, s.Owner, workload.PodDisruptionBudget(s.ID, spec.Deployment.EffectiveReplicas()), nil); err != nil {
		return nil, pipeline.Continue(), err
	}
	if ok, msg := DeploymentReady(live); !ok {
		s.SetFalse(conditions.TypeDeploymentReady, conditions.ReasonWaitingForDeployment, msg)
		// The parallel group needs the Deployment and Service to exist, not
		// to be ready: it still runs, so the API condition tracks the API
		// (a stale True while every pod is down would mislead).
		return live, pipeline.ProceedAndRequeueAfter(RequeueRollout), nil
	}
	if !s.IsTrue(conditions.TypeDeploymentReady) || s.Status().Endpoint == "" {
		s.Status().Endpoint = r.Endpoint(s.CR)
	}
	s.SetTrue(conditions.TypeDeploymentReady, conditions.ReasonDeploymentReady, "API Deployment is available")
	return live, pipeline.Continue(), nil
}

// keepReplicas leaves the live replica count to the autoscaler.
func keepReplicas(autoscaling bool) apply.Preserve[*appsv1.Deployment] {
	return func(live, desired *appsv1.Deployment) {
		if autoscaling {
			desired.Spec.Replicas = live.Spec.Replicas
		}
	}
}

// keepService keeps the allocated, immutable cluster IPs and a narrowed
// selector: the latch holds on the very object an update goes over, even
// when serviceNarrowed read an older copy than Ensure did.
func keepService(live, desired *corev1.Service) {
	desired.Spec.ClusterIP = live.Spec.ClusterIP
	desired.Spec.ClusterIPs = live.Spec.ClusterIPs
	if live.Spec.Selector[workload.ComponentLabel] == workload.ComponentAPI {
		desired.Spec.Selector[workload.ComponentLabel] = workload.ComponentAPI
	}
}

// serviceNarrowed latches the API-component selector: once the rollout has
// converged, or once the Service already selects it. The Service is read
// from the cache: a copy that lags a narrowing already written cannot widen
// the live selector again, since keepService keeps the narrowing of the
// object Ensure updates over, and an update over a stale resourceVersion is
// refused as a conflict.
func serviceNarrowed(ctx context.Context, s *Scope, d *appsv1.Deployment) (bool, error) {
	if RolledOut(d) {
		return true, nil
	}
	var svc corev1.Service
	err := s.Target.Client.Get(ctx, client.ObjectKey{Namespace: s.ID.Namespace, Name: s.ID.Instance}, &svc)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading Service %s: %w", s.ID.Instance, err)
	}
	return svc.Spec.Selector[workload.ComponentLabel] == workload.ComponentAPI, nil
}

// RolledOut reports a converged rollout: the current generation observed,
// every replica updated and available, no old replica left.
func RolledOut(d *appsv1.Deployment) bool {
	want := desiredReplicas(d)
	st := d.Status
	return d.Generation > 0 && st.ObservedGeneration >= d.Generation && want > 0 &&
		st.UpdatedReplicas >= want && st.Replicas == st.UpdatedReplicas && st.AvailableReplicas >= want
}

// DeploymentReady reports the generation observed, readyReplicas at least
// desired, and Available; the message says what is missing.
func DeploymentReady(live *appsv1.Deployment) (bool, string) {
	if live.Generation == 0 {
		return false, "Deployment not observed yet"
	}
	want := desiredReplicas(live)
	if live.Status.ObservedGeneration < live.Generation {
		return false, fmt.Sprintf("Deployment %s generation %d not observed yet", live.Name, live.Generation)
	}
	if live.Status.ReadyReplicas < want {
		return false, fmt.Sprintf("Deployment %s has %d/%d ready replicas", live.Name, live.Status.ReadyReplicas, want)
	}
	for _, c := range live.Status.Conditions {
		if c.Type == appsv1.DeploymentAvailable && c.Status == corev1.ConditionTrue {
			return true, ""
		}
	}
	return false, fmt.Sprintf("Deployment %s is not Available", live.Name)
}

func desiredReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas != nil {
		return *d.Spec.Replicas
	}
	return 1
}

// LiveDeployment is the CR's API Deployment as the children's cluster has
// it, nil when there is none or it is not the CR's: what a step that keeps
// the last good config reads the mounted names from.
func (r *Reconciler) LiveDeployment(ctx context.Context, s *Scope) (*appsv1.Deployment, error) {
	var d appsv1.Deployment
	err := s.Target.Client.Get(ctx, client.ObjectKey{Namespace: s.CR.GetNamespace(), Name: s.CR.GetName()}, &d)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading Deployment %s for its last good config: %w", s.CR.GetName(), err)
	}
	if !s.Owner.Owns(&d) {
		return nil, nil
	}
	return &d, nil
}
