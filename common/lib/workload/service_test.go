package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

var objLabels = map[string]string{
	"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
	"app.kubernetes.io/managed-by": "placement-operator",
}

func TestService(t *testing.T) {
	tests := []struct {
		name         string
		narrowed     bool
		wantSelector map[string]string
	}{
		{name: "not narrowed", narrowed: false, wantSelector: selLabels},
		{
			name: "narrowed", narrowed: true,
			wantSelector: map[string]string{
				"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
				"app.kubernetes.io/component": "api",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := &corev1.Service{
				ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: objLabels},
				Spec: corev1.ServiceSpec{
					Type:     corev1.ServiceTypeClusterIP,
					Selector: tt.wantSelector,
					Ports:    []corev1.ServicePort{{Protocol: corev1.ProtocolTCP, Port: 8778, TargetPort: intstr.FromInt32(8778)}},
				},
			}
			if diff := cmp.Diff(want, Service(testID, 8778, tt.narrowed)); diff != "" {
				t.Errorf("Service mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
