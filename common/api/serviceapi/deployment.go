package serviceapi

import (
	"encoding/json"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// Rendering defaults for DeploymentSpec fields the webhook never persists.
const (
	DefaultReplicas                      int32 = 3
	DefaultTerminationGracePeriodSeconds int64 = 30
	DefaultPreStopSleepSeconds           int64 = 5
)

// DeploymentSpec tunes the API Deployment.
// +kubebuilder:validation:XValidation:rule="(has(self.preStopSleepSeconds) ? self.preStopSleepSeconds : 5) < (has(self.terminationGracePeriodSeconds) ? self.terminationGracePeriodSeconds : 30)",message="deployment.preStopSleepSeconds (default 5) must be less than deployment.terminationGracePeriodSeconds (default 30)"
type DeploymentSpec struct {
	// Replicas of the API; unused while autoscaling is set.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=3
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Resources of the API container; when both maps are empty the webhook
	// fills the service's defaults: requests 100m/512Mi and limits 500m/1Gi
	// for Placement and Glance, requests 100m/256Mi and limits 500m/512Mi for
	// Barbican.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// TerminationGracePeriodSeconds of the pods; 30 when unset.
	// +kubebuilder:validation:Minimum=10
	// +optional
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// PreStopSleepSeconds the pod keeps serving after removal from endpoints; 5 when unset.
	// +kubebuilder:validation:Minimum=0
	// +optional
	PreStopSleepSeconds *int64 `json:"preStopSleepSeconds,omitempty"`
	// Strategy of the Deployment; RollingUpdate maxUnavailable 0 / maxSurge 1 when unset.
	// +optional
	Strategy *appsv1.DeploymentStrategy `json:"strategy,omitempty"`
	// TopologySpreadConstraints; nil renders zone and hostname spreading, [] disables it.
	// +optional
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints"`
	// PriorityClassName of the pods; the PriorityClass must exist.
	// +optional
	PriorityClassName *string `json:"priorityClassName,omitempty"`
}

// EffectiveReplicas returns replicas, DefaultReplicas when unset.
func (d *DeploymentSpec) EffectiveReplicas() int32 {
	if d == nil || d.Replicas <= 0 {
		return DefaultReplicas
	}
	return d.Replicas
}

// EffectiveGrace returns the termination grace period, 30 s when unset.
func (d *DeploymentSpec) EffectiveGrace() int64 {
	if d == nil || d.TerminationGracePeriodSeconds == nil {
		return DefaultTerminationGracePeriodSeconds
	}
	return *d.TerminationGracePeriodSeconds
}

// EffectivePreStop returns the preStop sleep, 5 s when unset.
func (d *DeploymentSpec) EffectivePreStop() int64 {
	if d == nil || d.PreStopSleepSeconds == nil {
		return DefaultPreStopSleepSeconds
	}
	return *d.PreStopSleepSeconds
}

// MarshalJSON omits a nil spread list but keeps an explicit empty one, which
// disables the default spreading: the field's tag has no omitempty, so an
// explicit [] survives the defaulting webhook's re-encoding.
func (d DeploymentSpec) MarshalJSON() ([]byte, error) {
	type plain DeploymentSpec
	if d.TopologySpreadConstraints != nil {
		return json.Marshal(plain(d))
	}
	return json.Marshal(struct {
		plain
		TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	}{plain: plain(d)})
}
