package serviceapi

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
	// NamespaceSelector selects the source namespaces; {} selects every
	// namespace. Required: left out, a NetworkPolicy peer would mean the
	// policy's own namespace, which is not what an omission should grant.
	// +required
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`
	// PodSelector narrows the sources to matching pods in those namespaces.
	// +optional
	PodSelector *metav1.LabelSelector `json:"podSelector,omitempty"`
}

// GetIngress returns the ingress sources, none for a nil spec.
func (n *NetworkPolicySpec) GetIngress() []NetworkPolicyIngressSource {
	if n == nil {
		return nil
	}
	return n.Ingress
}
