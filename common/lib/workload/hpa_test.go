package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func TestHorizontalPodAutoscaler(t *testing.T) {
	metric := func(name corev1.ResourceName, v int32) autoscalingv2.MetricSpec {
		return autoscalingv2.MetricSpec{
			Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{
				Name:   name,
				Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: new(v)},
			},
		}
	}
	tests := []struct {
		name        string
		spec        serviceapi.AutoscalingSpec
		replicas    int32
		wantMin     int32
		wantMetrics []autoscalingv2.MetricSpec
	}{
		{
			name:     "min defaults to replicas, cpu only",
			spec:     serviceapi.AutoscalingSpec{MaxReplicas: 10, TargetCPUUtilization: new(int32(70))},
			replicas: 3, wantMin: 3,
			wantMetrics: []autoscalingv2.MetricSpec{metric(corev1.ResourceCPU, 70)},
		},
		{
			name:     "explicit min, memory only",
			spec:     serviceapi.AutoscalingSpec{MinReplicas: new(int32(2)), MaxReplicas: 10, TargetMemoryUtilization: new(int32(80))},
			replicas: 3, wantMin: 2,
			wantMetrics: []autoscalingv2.MetricSpec{metric(corev1.ResourceMemory, 80)},
		},
		{
			name: "both targets, cpu first",
			spec: serviceapi.AutoscalingSpec{
				MaxReplicas: 10, TargetMemoryUtilization: new(int32(80)), TargetCPUUtilization: new(int32(60)),
			},
			replicas: 4, wantMin: 4,
			wantMetrics: []autoscalingv2.MetricSpec{metric(corev1.ResourceCPU, 60), metric(corev1.ResourceMemory, 80)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := &autoscalingv2.HorizontalPodAutoscaler{
				ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: objLabels},
				Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
					ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "p1"},
					MinReplicas:    new(tt.wantMin),
					MaxReplicas:    10,
					Metrics:        tt.wantMetrics,
				},
			}
			if diff := cmp.Diff(want, HorizontalPodAutoscaler(testID, tt.spec, tt.replicas)); diff != "" {
				t.Errorf("HPA mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
