package serviceapi

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ServiceSpec holds the spec fields every OpenStack service CR shares. Each
// operator embeds it inline, so the field paths stay those of the spec
// (spec.image, spec.database, ...) while the shared steps read them through
// one accessor.
//
// Required fields are omitted when empty, so a CR that lacks one is refused
// as a missing field rather than as an empty value that fails its pattern
// (the defaulting webhook re-encodes the whole object).
// +kubebuilder:validation:XValidation:rule="has(self.targetClusterRef) == has(oldSelf.targetClusterRef)",message="targetClusterRef is immutable: it cannot be added or removed"
// +kubebuilder:validation:XValidation:rule="!has(self.targetClusterRef) || !has(oldSelf.targetClusterRef) || self.targetClusterRef.name == oldSelf.targetClusterRef.name",message="targetClusterRef is immutable: its name cannot change"
type ServiceSpec struct {
	// OpenStackRelease is the release to run, YYYY.N: the input of the release
	// gate and the option catalog.
	// +kubebuilder:validation:Pattern=`^\d{4}\.[12]$`
	// +required
	OpenStackRelease string `json:"openStackRelease,omitempty"`
	// Image of the service; its migration Jobs run the same image.
	// +required
	Image ImageSpec `json:"image,omitzero"`
	// Deployment tunes the API Deployment.
	// +optional
	Deployment *DeploymentSpec `json:"deployment,omitempty"`
	// Database selects the schema's server and credentials.
	// +required
	Database DatabaseSpec `json:"database,omitzero"`
	// Cache is the Keystone token cache.
	// +required
	Cache CacheSpec `json:"cache,omitzero"`
	// KeystoneEndpoint is the in-cluster Keystone URL ([keystone_authtoken] auth_url).
	// +kubebuilder:validation:Pattern=`^https?://`
	// +required
	KeystoneEndpoint string `json:"keystoneEndpoint,omitempty"`
	// KeystonePublicEndpoint is www_authenticate_uri; keystoneEndpoint when unset.
	// +kubebuilder:validation:Pattern=`^https?://`
	// +optional
	KeystonePublicEndpoint string `json:"keystonePublicEndpoint,omitempty"`
	// ServiceUser is the Keystone identity for token validation.
	// +required
	ServiceUser ServiceUserSpec `json:"serviceUser,omitzero"`
	// Region renders [keystone_authtoken] region_name when set.
	// +optional
	Region string `json:"region,omitempty"`
	// Gateway exposes the API through an HTTPRoute.
	// +optional
	Gateway *GatewaySpec `json:"gateway,omitempty"`
	// NetworkPolicy turns on a fail-closed NetworkPolicy.
	// +optional
	NetworkPolicy *NetworkPolicySpec `json:"networkPolicy,omitempty"`
	// Autoscaling turns on a HorizontalPodAutoscaler.
	// +optional
	Autoscaling *AutoscalingSpec `json:"autoscaling,omitempty"`
	// Logging selects format and levels.
	// +optional
	Logging *LoggingSpec `json:"logging,omitempty"`
	// SecretStoreRef selects the ESO store; ClusterSecretStore/openbao-cluster-store when unset.
	// +optional
	SecretStoreRef *SecretStoreRef `json:"secretStoreRef,omitempty"`
	// TargetClusterRef sends every child to a registered cluster; immutable.
	// +optional
	TargetClusterRef *TargetClusterRef `json:"targetClusterRef,omitempty"`
	// PolicyOverrides renders policy.yaml.
	// +optional
	PolicyOverrides *PolicyOverrides `json:"policyOverrides,omitempty"`
	// ExtraConfig merges over the rendered service config, section -> key -> value.
	// +optional
	ExtraConfig map[string]map[string]string `json:"extraConfig,omitempty"`
}

// ServiceStatus holds the status fields every OpenStack service CR shares;
// each operator embeds it inline.
type ServiceStatus struct {
	// Conditions: Ready, the sub-conditions of the step table and ExtraConfigHealthy.
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
	// InstalledRelease is the release whose schema migration last completed.
	// +optional
	InstalledRelease string `json:"installedRelease,omitempty"`
	// InstalledImage is the image reference that ran that migration.
	// +optional
	InstalledImage string `json:"installedImage,omitempty"`
	// TargetRelease is the release of an accepted bump still in progress.
	// +optional
	TargetRelease string `json:"targetRelease,omitempty"`
}

// TargetClusterName is the name of the registered target cluster, "" for the
// management cluster.
func (s *ServiceSpec) TargetClusterName() string {
	if s.TargetClusterRef == nil {
		return ""
	}
	return s.TargetClusterRef.Name
}

// EffectiveKeystonePublicEndpoint is keystonePublicEndpoint, keystoneEndpoint when unset.
func (s *ServiceSpec) EffectiveKeystonePublicEndpoint() string {
	if s.KeystonePublicEndpoint == "" {
		return s.KeystoneEndpoint
	}
	return s.KeystonePublicEndpoint
}

// Phases of an expand-migrate-contract upgrade (status.upgradePhase).
const (
	PhaseExpanding     = "Expanding"
	PhaseMigrating     = "Migrating"
	PhaseRollingUpdate = "RollingUpdate"
	PhaseContracting   = "Contracting"
)
