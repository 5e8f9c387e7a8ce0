package workload

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// HorizontalPodAutoscaler renders the HPA for the instance's Deployment.
// Without an explicit minimum the configured replica count is the floor.
func HorizontalPodAutoscaler(id Identity, a serviceapi.AutoscalingSpec, replicas int32) *autoscalingv2.HorizontalPodAutoscaler {
	minReplicas := replicas
	if a.MinReplicas != nil {
		minReplicas = *a.MinReplicas
	}
	var metrics []autoscalingv2.MetricSpec
	if a.TargetCPUUtilization != nil {
		metrics = append(metrics, utilization(corev1.ResourceCPU, *a.TargetCPUUtilization))
	}
	if a.TargetMemoryUtilization != nil {
		metrics = append(metrics, utilization(corev1.ResourceMemory, *a.TargetMemoryUtilization))
	}
	return &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{
			Name:      id.Instance,
			Namespace: id.Namespace,
			Labels:    id.Labels(),
		},
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{
				APIVersion: "apps/v1",
				Kind:       "Deployment",
				Name:       id.Instance,
			},
			MinReplicas: new(minReplicas),
			MaxReplicas: a.MaxReplicas,
			Metrics:     metrics,
		},
	}
}

func utilization(name corev1.ResourceName, target int32) autoscalingv2.MetricSpec {
	return autoscalingv2.MetricSpec{
		Type: autoscalingv2.ResourceMetricSourceType,
		Resource: &autoscalingv2.ResourceMetricSource{
			Name: name,
			Target: autoscalingv2.MetricTarget{
				Type:               autoscalingv2.UtilizationMetricType,
				AverageUtilization: new(target),
			},
		},
	}
}
