package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BackendS3 is the only backend type: an S3 image store.
const BackendS3 = "S3"

// S3 bucket URL formats.
const (
	BucketURLPath    = "path"
	BucketURLVirtual = "virtual"
)

// Keys of an S3 backend's credentials Secret.
const (
	S3AccessKeyID     = "access-key-id"
	S3SecretAccessKey = "secret-access-key"
)

// GlanceBackendSpec attaches one image store to a Glance; the CR's name is
// the store id ([<name>] and <name>:s3 in enabled_backends).
// +kubebuilder:validation:XValidation:rule="self.type != 'S3' || has(self.s3)",message="s3 is required when type is S3"
// +kubebuilder:validation:XValidation:rule="!has(self.s3) || self.type == 'S3'",message="s3 is only allowed when type is S3"
type GlanceBackendSpec struct {
	// GlanceRef names the Glance in this namespace; immutable; may name a
	// Glance that does not exist yet.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="glanceRef is immutable"
	// +required
	GlanceRef GlanceRef `json:"glanceRef,omitzero"`
	// Type of the store; immutable.
	// +kubebuilder:validation:Enum=S3
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="type is immutable"
	// +required
	Type string `json:"type,omitempty"`
	// S3 configures an S3 store.
	// +optional
	S3 *S3Spec `json:"s3,omitempty"`
	// IsDefault makes this the default store ([glance_store] default_backend);
	// exactly one credential-ready backend of a Glance must be default.
	// +optional
	IsDefault bool `json:"isDefault,omitempty"`
	// ExtraOptions add keys to the store's section; they never override a typed key.
	// +kubebuilder:validation:MaxProperties=32
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) <= 256 && size(self[k]) <= 1024)",message="extraOptions keys must be at most 256 and values at most 1024 characters"
	// +optional
	ExtraOptions map[string]string `json:"extraOptions,omitempty"`
}

// GlanceRef names the Glance a backend attaches to.
type GlanceRef struct {
	// Name of the Glance.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +required
	Name string `json:"name,omitempty"`
}

// S3Spec is an S3 store.
type S3Spec struct {
	// Host is the S3 endpoint URL (s3_store_host).
	// +kubebuilder:validation:Pattern=`^https?://`
	// +kubebuilder:validation:MaxLength=2048
	// +required
	Host string `json:"host,omitempty"`
	// Bucket holding the images (s3_store_bucket).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +required
	Bucket string `json:"bucket,omitempty"`
	// CredentialsSecretRef names the Secret holding access-key-id and secret-access-key.
	// +required
	CredentialsSecretRef CredentialsSecretRef `json:"credentialsSecretRef,omitzero"`
	// BucketURLFormat is path or virtual; path when unset (always rendered).
	// +kubebuilder:validation:Enum=path;virtual
	// +optional
	BucketURLFormat string `json:"bucketURLFormat,omitempty"`
	// Region of the bucket (s3_store_region_name).
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Region string `json:"region,omitempty"`
	// CreateBucketOnPut lets Glance create a missing bucket on upload.
	// +optional
	CreateBucketOnPut bool `json:"createBucketOnPut,omitempty"`
	// LargeObjectSize above which uploads are multipart (s3_store_large_object_size,
	// rendered in whole MiB, rounded up); at least 1Mi.
	// +optional
	LargeObjectSize *resource.Quantity `json:"largeObjectSize,omitempty"`
	// LargeObjectChunkSize of multipart uploads (s3_store_large_object_chunk_size,
	// rendered in whole MiB, rounded up); at least 1Mi.
	// +optional
	LargeObjectChunkSize *resource.Quantity `json:"largeObjectChunkSize,omitempty"`
}

// CredentialsSecretRef names a Secret in the backend's namespace.
type CredentialsSecretRef struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +required
	Name string `json:"name,omitempty"`
}

// GlanceBackendStatus is written by the backend controller only.
type GlanceBackendStatus struct {
	// Conditions: CredentialsReady, ConfigProjected and Ready.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ObservedGeneration is the generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// GlanceBackend is one image store attached to a Glance.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Type",type=string,JSONPath=`.spec.type`
// +kubebuilder:printcolumn:name="Default",type=boolean,JSONPath=`.spec.isDefault`
// +kubebuilder:printcolumn:name="Glance",type=string,JSONPath=`.spec.glanceRef.name`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type GlanceBackend struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GlanceBackendSpec   `json:"spec,omitempty"`
	Status GlanceBackendStatus `json:"status,omitempty"`
}

// GlanceBackendList lists GlanceBackends.
// +kubebuilder:object:root=true
type GlanceBackendList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []GlanceBackend `json:"items"`
}
