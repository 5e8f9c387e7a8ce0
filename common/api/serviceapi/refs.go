package serviceapi

// LocalObjectRef names an object in the CR's namespace.
type LocalObjectRef struct {
	// Name of the referenced object.
	// +kubebuilder:validation:MinLength=1
	// +required
	Name string `json:"name,omitempty"`
}

// SecretKeyRef names a Secret in the CR's namespace and a key in it.
type SecretKeyRef struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +required
	Name string `json:"name,omitempty"`
	// Key in the Secret.
	// +optional
	Key string `json:"key,omitempty"`
}

// Secret store kinds of External Secrets Operator.
const (
	ClusterSecretStoreKind = "ClusterSecretStore"
	SecretStoreKind        = "SecretStore"
	// DefaultSecretStoreName is the store a CR without spec.secretStoreRef gates on.
	DefaultSecretStoreName = "openbao-cluster-store"
)

// SecretStoreRef selects the ESO store the credential Secrets are synced from.
type SecretStoreRef struct {
	// Kind is ClusterSecretStore or SecretStore (looked up in the CR's namespace).
	// +kubebuilder:validation:Enum=ClusterSecretStore;SecretStore
	// +kubebuilder:default=ClusterSecretStore
	// +optional
	Kind string `json:"kind,omitempty"`
	// Name of the store.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +required
	Name string `json:"name,omitempty"`
}

// EffectiveSecretStore resolves the store a CR gates on: the default
// ClusterSecretStore when ref is nil, ClusterSecretStore when kind is empty.
func EffectiveSecretStore(ref *SecretStoreRef) SecretStoreRef {
	if ref == nil {
		return SecretStoreRef{Kind: ClusterSecretStoreKind, Name: DefaultSecretStoreName}
	}
	out := *ref
	if out.Kind == "" {
		out.Kind = ClusterSecretStoreKind
	}
	return out
}

// TargetClusterRef names a registered cluster that receives the CR's children.
type TargetClusterRef struct {
	// Name of the registration Secret in the operator's clusters namespace.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +required
	Name string `json:"name,omitempty"`
}
