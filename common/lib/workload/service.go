package workload

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Service renders the ClusterIP Service. narrowed adds the component label to
// the selector; callers latch it once the rollout has converged so pods from
// before the label existed keep receiving traffic until then.
func Service(id Identity, port int32, narrowed bool) *corev1.Service {
	selector := id.SelectorLabels()
	if narrowed {
		selector[ComponentLabel] = ComponentAPI
	}
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{
			Name:      id.Instance,
			Namespace: id.Namespace,
			Labels:    id.Labels(),
		},
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: selector,
			Ports: []corev1.ServicePort{{
				Protocol:   corev1.ProtocolTCP,
				Port:       port,
				TargetPort: intstr.FromInt32(port),
			}},
		},
	}
}
