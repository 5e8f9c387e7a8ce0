package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/apply"
	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileDeployment ensures the API Deployment, Service and PDB, narrows the
// Service selector once the rollout converged and stamps status.endpoint.
func (r *PlacementReconciler) reconcileDeployment(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	desired := render.Deployment(p, s.configMap, render.Digests{Authtoken: s.authtokenHash, DBConnection: s.dbConnectionHash})
	// Ensure leaves the Deployment as the cluster has it in desired, status
	// included; a changed (immutable) selector replaces it instead.
	why, err := apply.EnsureReplacing(ctx, s.target.Client, s.owner, desired, keepReplicas(p.Spec.Autoscaling != nil), workload.SelectorChanged)
	if err != nil {
		return pipeline.Continue(), err
	}
	if why != "" {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionDeploymentReady, conditions.ReasonWaitingForDeployment,
			fmt.Sprintf("Deployment %s deleted to be recreated: %s", desired.Name, why))
		return pipeline.RequeueAfter(requeueDeployment), nil
	}
	live := desired
	id := render.Identity(p)
	narrowed, err := serviceNarrowed(ctx, s, id, live)
	if err != nil {
		return pipeline.Continue(), err
	}
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, workload.Service(id, placementv1.APIPort, narrowed), keepClusterIP); err != nil {
		return pipeline.Continue(), err
	}
	if _, err := apply.Ensure(ctx, s.target.Client, s.owner, workload.PodDisruptionBudget(id, p.Spec.Deployment.EffectiveReplicas()), nil); err != nil {
		return pipeline.Continue(), err
	}
	if ok, msg := deploymentReady(live); !ok {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionDeploymentReady, conditions.ReasonWaitingForDeployment, msg)
		// The parallel group needs the Deployment and Service to exist, not
		// to be ready: it still runs, so PlacementAPIReady tracks the API
		// (stale True while every pod is down would mislead).
		return pipeline.ProceedAndRequeueAfter(requeueDeployment), nil
	}
	if !conditionTrue(p, placementv1.ConditionDeploymentReady) || p.Status.Endpoint == "" {
		p.Status.Endpoint = r.endpoint(p)
	}
	conditions.True(s.Conditions(), s.gen(), placementv1.ConditionDeploymentReady, conditions.ReasonDeploymentReady, "API Deployment is available")
	return pipeline.Continue(), nil
}

// keepReplicas leaves the live replica count to the autoscaler.
func keepReplicas(autoscaling bool) apply.Preserve[*appsv1.Deployment] {
	return func(live, desired *appsv1.Deployment) {
		if autoscaling {
			desired.Spec.Replicas = live.Spec.Replicas
		}
	}
}

// keepClusterIP keeps the allocated, immutable cluster IPs.
func keepClusterIP(live, desired *corev1.Service) {
	desired.Spec.ClusterIP = live.Spec.ClusterIP
	desired.Spec.ClusterIPs = live.Spec.ClusterIPs
}

// serviceNarrowed latches the API-component selector: once the rollout has
// converged, or once the live Service (read uncached) already selects it.
func serviceNarrowed(ctx context.Context, s *scope, id workload.Identity, d *appsv1.Deployment) (bool, error) {
	if rolledOut(d) {
		return true, nil
	}
	var svc corev1.Service
	err := s.target.Reader.Get(ctx, client.ObjectKey{Namespace: id.Namespace, Name: id.Instance}, &svc)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading Service %s: %w", id.Instance, err)
	}
	return svc.Spec.Selector[workload.ComponentLabel] == workload.ComponentAPI, nil
}

func rolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	st := d.Status
	return d.Generation > 0 && st.ObservedGeneration >= d.Generation && want > 0 &&
		st.UpdatedReplicas >= want && st.Replicas == st.UpdatedReplicas && st.AvailableReplicas >= want
}

// deploymentReady: generation observed, readyReplicas ≥ desired and Available.
func deploymentReady(live *appsv1.Deployment) (bool, string) {
	if live.Generation == 0 {
		return false, "Deployment not observed yet"
	}
	want := int32(1)
	if live.Spec.Replicas != nil {
		want = *live.Spec.Replicas
	}
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

// endpoint is the gateway URL when exposed, else the in-cluster Service URL.
func (r *PlacementReconciler) endpoint(p *placementv1.Placement) string {
	if p.Spec.Gateway != nil {
		return "https://" + p.Spec.Gateway.Hostname + "/"
	}
	return r.inClusterURL(p)
}

// inClusterURL is the API Service's URL under the cluster's DNS domain.
func (r *PlacementReconciler) inClusterURL(p *placementv1.Placement) string {
	domain := r.ClusterDomain
	if domain == "" {
		domain = DefaultClusterDomain
	}
	return fmt.Sprintf("http://%s.%s.svc.%s:%d/", p.Name, p.Namespace, domain, placementv1.APIPort)
}
