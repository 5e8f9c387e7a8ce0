package standins

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Reasons and messages the Deployment controller writes on a finished rollout.
const (
	reasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	messageAvailable               = "Deployment has minimum availability."
	reasonNewReplicaSetAvailable   = "NewReplicaSetAvailable"
	messageProgressed              = "ReplicaSet has successfully progressed."
)

// NewDeploymentRollout plays the Deployment controller for a cluster
// without one: every Deployment whose status does not describe its current
// generation fully rolled out is reported so at once (all replicas updated,
// ready and available; Available and Progressing True). No ReplicaSet or pod
// is created.
func NewDeploymentRollout(c client.Client) *StatusReporter[*appsv1.Deployment] {
	return &StatusReporter[*appsv1.Deployment]{
		Client: c, Kind: "Deployment", New: func() *appsv1.Deployment { return &appsv1.Deployment{} },
		Settled: rolledOut, Report: reportRolledOut, Done: "reported Deployment rolled out",
	}
}

// rolledOut reports whether the status already describes the current
// generation with every replica updated and available.
func rolledOut(d *appsv1.Deployment) bool {
	n := ptr.Deref(d.Spec.Replicas, 1)
	s := d.Status
	if s.ObservedGeneration != d.Generation || s.Replicas != n || s.UpdatedReplicas != n ||
		s.ReadyReplicas != n || s.AvailableReplicas != n || s.UnavailableReplicas != 0 {
		return false
	}
	return deploymentCondition(d, appsv1.DeploymentAvailable, reasonMinimumReplicasAvailable) &&
		deploymentCondition(d, appsv1.DeploymentProgressing, reasonNewReplicaSetAvailable)
}

func deploymentCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType, reason string) bool {
	for _, c := range d.Status.Conditions {
		if c.Type == t {
			return c.Status == corev1.ConditionTrue && c.Reason == reason
		}
	}
	return false
}

// reportRolledOut writes the counts and conditions of a completed rollout,
// keeping a condition's transition time when its status does not change.
func reportRolledOut(d *appsv1.Deployment, now metav1.Time) {
	n := ptr.Deref(d.Spec.Replicas, 1)
	d.Status.ObservedGeneration = d.Generation
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas = n, n, n, n
	d.Status.UnavailableReplicas = 0
	setDeploymentCondition(d, appsv1.DeploymentAvailable, reasonMinimumReplicasAvailable, messageAvailable, now)
	setDeploymentCondition(d, appsv1.DeploymentProgressing, reasonNewReplicaSetAvailable, messageProgressed, now)
}

func setDeploymentCondition(d *appsv1.Deployment, t appsv1.DeploymentConditionType, reason, message string, now metav1.Time) {
	c := appsv1.DeploymentCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason, Message: message,
		LastUpdateTime: now, LastTransitionTime: now}
	for i, old := range d.Status.Conditions {
		if old.Type != t {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		d.Status.Conditions[i] = c
		return
	}
	d.Status.Conditions = append(d.Status.Conditions, c)
}
