package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StoreOpenBao is the only store type; Vault servers use it too.
const StoreOpenBao = "OpenBao"

// DefaultKVMountpoint is the KV v2 mount of a managed instance and the
// default of openBao.kvMountpoint.
const DefaultKVMountpoint = "barbican"

// Keys of a store's credentials Secret and CA bundle Secret.
const (
	KeyRoleID   = "role-id"
	KeySecretID = "secret-id"
	KeyCACert   = "ca.crt"
)

// Annotations on a managed store's <store>-approle Secret.
const (
	AnnotationMintedAt   = AnnotationDomain + "/secret-id-minted-at"
	AnnotationTTLSeconds = AnnotationDomain + "/secret-id-ttl-seconds"
)

// BarbicanSecretStoreSpec attaches one secret store to a Barbican; the CR's
// name is the [secretstore:<name>] suffix.
// +kubebuilder:validation:XValidation:rule="self.type != 'OpenBao' || has(self.openBao)",message="openBao is required when type is OpenBao"
// +kubebuilder:validation:XValidation:rule="!has(self.openBao) || self.type == 'OpenBao'",message="openBao is only allowed when type is OpenBao"
type BarbicanSecretStoreSpec struct {
	// BarbicanRef names the Barbican in this namespace; immutable; may name a
	// Barbican that does not exist yet.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="barbicanRef is immutable"
	// +required
	BarbicanRef BarbicanRef `json:"barbicanRef,omitzero"`
	// Type of the store; immutable.
	// +kubebuilder:validation:Enum=OpenBao
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type is immutable"
	// +required
	Type string `json:"type,omitempty"`
	// IsDefault makes this the global default store; exactly one
	// credential-ready store of a Barbican must be default. A flip re-renders
	// the config and rolls the API pods.
	// +optional
	IsDefault bool `json:"isDefault,omitempty"`
	// OpenBao configures an OpenBao (or Vault) store.
	// +optional
	OpenBao *OpenBaoSpec `json:"openBao,omitempty"`
	// ExtraOptions add keys to [vault_plugin] (the default store's only);
	// they never override an operator key.
	// +kubebuilder:validation:MaxProperties=32
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 256 && size(self[k]) <= 1024)",message="extraOptions keys must be at most 256 and values at most 1024 characters"
	// +optional
	ExtraOptions map[string]string `json:"extraOptions,omitempty"`
}

// BarbicanRef names the Barbican a store attaches to.
type BarbicanRef struct {
	// Name of the Barbican.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name,omitempty"`
}

// OpenBaoSpec is an OpenBao store: managed (instanceRef, the operator mints
// the AppRole secret ID) or brownfield (server, credentials given).
// +kubebuilder:validation:XValidation:rule="has(self.instanceRef) != has(self.server)",message="openBao needs exactly one of instanceRef and server"
// +kubebuilder:validation:XValidation:rule="has(self.instanceRef) == has(oldSelf.instanceRef)",message="openBao mode is immutable: instanceRef and server cannot be swapped"
// +kubebuilder:validation:XValidation:rule="!has(self.instanceRef) || self.kvMountpoint == 'barbican'",message="a managed store (instanceRef) must keep kvMountpoint barbican"
// +kubebuilder:validation:XValidation:rule="!has(self.__namespace__) || has(self.server)",message="openBao.namespace is for a brownfield server only"
type OpenBaoSpec struct {
	// InstanceRef names an OpenBaoCluster (openbao.org/v1alpha1) in the
	// store's namespace: a managed store.
	// +optional
	InstanceRef *InstanceRef `json:"instanceRef,omitempty"`
	// Server is an existing server: a brownfield store.
	// +optional
	Server *OpenBaoServer `json:"server,omitempty"`
	// KVMountpoint is the KV v2 mount secrets are written to; immutable.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:default=barbican
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="kvMountpoint is immutable"
	// +optional
	KVMountpoint string `json:"kvMountpoint,omitempty"`
	// Namespace is the OpenBao namespace header sent on every call (brownfield only).
	// +kubebuilder:validation:MaxLength=256
	// +optional
	Namespace string `json:"namespace,omitempty"`
}

// InstanceRef names an OpenBaoCluster.
type InstanceRef struct {
	// Name of the OpenBaoCluster.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name,omitempty"`
}

// OpenBaoServer is a brownfield server.
type OpenBaoServer struct {
	// URL of the server; https only.
	// +kubebuilder:validation:Pattern=`^https://`
	// +kubebuilder:validation:MaxLength=2048
	// +required
	URL string `json:"url,omitempty"`
	// CABundleSecretRef names a Secret holding ca.crt; system trust when unset.
	// +optional
	CABundleSecretRef *SecretRef `json:"caBundleSecretRef,omitempty"`
	// CredentialsSecretRef names the Secret holding role-id and secret-id;
	// the operator only reads it.
	// +required
	CredentialsSecretRef SecretRef `json:"credentialsSecretRef,omitzero"`
}

// SecretRef names a Secret in the store's namespace.
type SecretRef struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +required
	Name string `json:"name,omitempty"`
}

// Managed reports whether the store is managed (instanceRef).
func (s *BarbicanSecretStore) Managed() bool {
	return s.Spec.OpenBao != nil && s.Spec.OpenBao.InstanceRef != nil
}

// EffectiveKVMountpoint is openBao.kvMountpoint, barbican when unset.
func (o *OpenBaoSpec) EffectiveKVMountpoint() string {
	if o == nil || o.KVMountpoint == "" {
		return DefaultKVMountpoint
	}
	return o.KVMountpoint
}

// BarbicanSecretStoreStatus is written by the store controller only.
type BarbicanSecretStoreStatus struct {
	// Conditions: CredentialsReady, ProvisioningReady (managed), ConfigProjected and Ready.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ObservedGeneration is the generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// CredentialsHash is the SHA-256 of the role ID and secret ID that
	// CredentialsReady was last set True for. The Barbican projects the
	// pair only while its credentials Secret still digests to it, so a pair
	// changed after the check waits for the store instead of rolling pods.
	// +optional
	CredentialsHash string `json:"credentialsHash,omitempty"`
}

// BarbicanSecretStore is one secret store attached to a Barbican.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="Default",type=boolean,JSONPath=`.spec.isDefault`
// +kubebuilder:printcolumn:name="Barbican",type=string,JSONPath=`.spec.barbicanRef.name`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type BarbicanSecretStore struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BarbicanSecretStoreSpec   `json:"spec,omitempty"`
	Status BarbicanSecretStoreStatus `json:"status,omitempty"`
}

// BarbicanSecretStoreList lists BarbicanSecretStores.
// +kubebuilder:object:root=true
type BarbicanSecretStoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BarbicanSecretStore `json:"items"`
}
