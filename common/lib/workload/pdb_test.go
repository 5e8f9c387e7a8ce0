package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestPodDisruptionBudget(t *testing.T) {
	one := intstr.FromInt32(1)
	tests := []struct {
		name              string
		replicas          int32
		wantMin, wantUnav *intstr.IntOrString
	}{
		{name: "single replica never blocks drains", replicas: 1, wantUnav: &one},
		{name: "zero treated like one", replicas: 0, wantUnav: &one},
		{name: "two replicas keep one", replicas: 2, wantMin: &one},
		{name: "many replicas keep one", replicas: 5, wantMin: &one},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := &policyv1.PodDisruptionBudget{
				ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: objLabels},
				Spec: policyv1.PodDisruptionBudgetSpec{
					Selector: &metav1.LabelSelector{
						MatchLabels: selLabels,
						MatchExpressions: []metav1.LabelSelectorRequirement{{
							Key: "batch.kubernetes.io/job-name", Operator: metav1.LabelSelectorOpDoesNotExist,
						}},
					},
					MinAvailable:   tt.wantMin,
					MaxUnavailable: tt.wantUnav,
				},
			}
			if diff := cmp.Diff(want, PodDisruptionBudget(testID, tt.replicas)); diff != "" {
				t.Errorf("PDB mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
