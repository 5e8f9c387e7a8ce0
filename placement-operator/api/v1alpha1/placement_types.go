package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/shared"
)

// PlacementSpec is the desired state of an OpenStack Placement API.
// +kubebuilder:validation:XValidation:rule="has(self.targetClusterRef) == has(oldSelf.targetClusterRef)",message="targetClusterRef is immutable: it cannot be added or removed"
// +kubebuilder:validation:XValidation:rule="!has(self.targetClusterRef) || !has(oldSelf.targetClusterRef) || self.targetClusterRef.name == oldSelf.targetClusterRef.name",message="targetClusterRef is immutable: its name cannot change"
type PlacementSpec struct {
	// OpenStackRelease is the release to run, YYYY.N; drives the release gate and
	// the option catalog only.
	// +kubebuilder:validation:Pattern=`^\d{4}\.[12]$`
	OpenStackRelease string `json:"openStackRelease"`
	// Image of placement-api; the db-sync Job runs the same image.
	Image shared.ImageSpec `json:"image"`
	// Deployment tunes the API Deployment.
	// +optional
	Deployment *shared.DeploymentSpec `json:"deployment,omitempty"`
	// Database selects the schema's server and credentials.
	Database shared.DatabaseSpec `json:"database"`
	// Cache is the Keystone token cache.
	Cache shared.CacheSpec `json:"cache"`
	// KeystoneEndpoint is the in-cluster Keystone URL ([keystone_authtoken] auth_url).
	// +kubebuilder:validation:Pattern=`^https?://`
	KeystoneEndpoint string `json:"keystoneEndpoint"`
	// KeystonePublicEndpoint is www_authenticate_uri; keystoneEndpoint when unset.
	// +kubebuilder:validation:Pattern=`^https?://`
	// +optional
	KeystonePublicEndpoint string `json:"keystonePublicEndpoint,omitempty"`
	// ServiceUser is the Keystone identity for token validation.
	ServiceUser shared.ServiceUserSpec `json:"serviceUser"`
	// Region renders [keystone_authtoken] region_name when set.
	// +optional
	Region string `json:"region,omitempty"`
	// APIServer tunes uwsgi.
	// +optional
	APIServer *APIServerSpec `json:"apiServer,omitempty"`
	// Gateway exposes the API through an HTTPRoute.
	// +optional
	Gateway *shared.GatewaySpec `json:"gateway,omitempty"`
	// NetworkPolicy turns on a fail-closed NetworkPolicy.
	// +optional
	NetworkPolicy *shared.NetworkPolicySpec `json:"networkPolicy,omitempty"`
	// Autoscaling turns on a HorizontalPodAutoscaler.
	// +optional
	Autoscaling *shared.AutoscalingSpec `json:"autoscaling,omitempty"`
	// Logging selects format and levels.
	// +optional
	Logging *shared.LoggingSpec `json:"logging,omitempty"`
	// SecretStoreRef selects the ESO store; ClusterSecretStore/openbao-cluster-store when unset.
	// +optional
	SecretStoreRef *shared.SecretStoreRef `json:"secretStoreRef,omitempty"`
	// TargetClusterRef sends every child to a registered cluster; immutable.
	// +optional
	TargetClusterRef *shared.TargetClusterRef `json:"targetClusterRef,omitempty"`
	// PolicyOverrides renders policy.yaml.
	// +optional
	PolicyOverrides *shared.PolicyOverrides `json:"policyOverrides,omitempty"`
	// ExtraConfig merges over the rendered placement.conf, section -> key -> value.
	// +optional
	ExtraConfig map[string]map[string]string `json:"extraConfig,omitempty"`
}

// APIServerSpec tunes the API server process.
type APIServerSpec struct {
	// UWSGI tunes uwsgi.
	// +optional
	UWSGI *shared.UWSGISpec `json:"uwsgi,omitempty"`
}

// PlacementStatus is the observed state of a Placement.
type PlacementStatus struct {
	// Conditions: Ready, the seven sub-conditions and ExtraConfigHealthy.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ObservedGeneration is the generation the status was computed for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Endpoint is the API URL, set when DeploymentReady turns True; never cleared.
	// +optional
	Endpoint string `json:"endpoint,omitempty"`
	// InstalledRelease is the release whose db-sync last succeeded.
	// +optional
	InstalledRelease string `json:"installedRelease,omitempty"`
	// InstalledImage is the image reference that ran that db-sync.
	// +optional
	InstalledImage string `json:"installedImage,omitempty"`
	// TargetRelease is the release of an accepted bump still in progress.
	// +optional
	TargetRelease string `json:"targetRelease,omitempty"`
}

// Placement runs the OpenStack Placement API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Release",type=string,JSONPath=`.status.installedRelease`
// +kubebuilder:printcolumn:name="Endpoint",type=string,JSONPath=`.status.endpoint`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Placement struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PlacementSpec   `json:"spec,omitempty"`
	Status PlacementStatus `json:"status,omitempty"`
}

// PlacementList lists Placements.
// +kubebuilder:object:root=true
type PlacementList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Placement `json:"items"`
}
