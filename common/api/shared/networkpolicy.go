package shared

import (
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// NetworkPolicySpec turns on a fail-closed NetworkPolicy for the API pods.
type NetworkPolicySpec struct {
	// Ingress lists the sources allowed to reach the API port; at least one.
	// +kubebuilder:validation:MinItems=1
	// +required
	Ingress []NetworkPolicyIngressSource `json:"ingress,omitzero"`
	// AdditionalEgress rules appended verbatim after the derived ones.
	// +optional
	AdditionalEgress []networkingv1.NetworkPolicyEgressRule `json:"additionalEgress,omitempty"`
}

// NetworkPolicyIngressSource selects pods by namespace and, optionally, by pod labels (AND).
type NetworkPolicyIngressSource struct {
	// NamespaceSelector selects the source namespaces.
	NamespaceSelector metav1.LabelSelector `json:"namespaceSelector"`
	// PodSelector narrows the sources to matching pods in those namespaces.
	// +optional
	PodSelector *metav1.LabelSelector `json:"podSelector,omitempty"`
}
