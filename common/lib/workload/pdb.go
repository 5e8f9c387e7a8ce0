package workload

import (
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// JobNameLabel is set by the Job controller on every Job pod.
const JobNameLabel = "batch.kubernetes.io/job-name"

// PodDisruptionBudget renders the API PDB. Job pods are excluded explicitly;
// a single replica gets maxUnavailable so node drains are never blocked.
func PodDisruptionBudget(id Identity, replicas int32) *policyv1.PodDisruptionBudget {
	spec := policyv1.PodDisruptionBudgetSpec{
		Selector: &metav1.LabelSelector{
			MatchLabels: id.SelectorLabels(),
			MatchExpressions: []metav1.LabelSelectorRequirement{{
				Key:      JobNameLabel,
				Operator: metav1.LabelSelectorOpDoesNotExist,
			}},
		},
	}
	if replicas > 1 {
		spec.MinAvailable = new(intstr.FromInt32(1))
	} else {
		spec.MaxUnavailable = new(intstr.FromInt32(1))
	}
	return &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{
			Name:      id.Instance,
			Namespace: id.Namespace,
			Labels:    id.Labels(),
		},
		Spec: spec,
	}
}
