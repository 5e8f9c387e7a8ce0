package v1alpha1

// Condition types only a Barbican has. Ready aggregates these and the shared
// ones of the step table (common/framework/conditions: SecretsReady, DatabaseReady,
// DeploymentReady, HPAReady, NetworkPolicyReady, HTTPRouteReady);
// ExtraConfigHealthy is reported and never aggregated.
const (
	ConditionSecretStoresReady = "SecretStoresReady"
	ConditionDBCleanReady      = "DBCleanReady"
	ConditionBarbicanAPIReady  = "BarbicanAPIReady"
)

// Reasons of the Barbican-only conditions. WaitingForSecretStores is also a
// reason of DBCleanReady, DatabaseReady and DeploymentReady: the cascade of a
// projection that produced no config yet.
const (
	ReasonAllStoresProjected     = "AllStoresProjected"
	ReasonNoDefaultSecretStore   = "NoDefaultSecretStore"
	ReasonMultipleOpenBaoStores  = "MultipleOpenBaoStores"
	ReasonWaitingForSecretStores = "WaitingForSecretStores"
	ReasonDBCleanScheduled       = "DBCleanScheduled"
	ReasonDBCleanSuspended       = "DBCleanSuspended"
	ReasonDBCleanJobFailed       = "DBCleanJobFailed"
	ReasonDBCleanBlocked         = "DBCleanBlocked"
)

// Condition types of a BarbicanSecretStore, written by its controller only.
// ProvisioningReady exists on managed stores only.
const (
	ConditionCredentialsReady  = "CredentialsReady"
	ConditionProvisioningReady = "ProvisioningReady"
	ConditionConfigProjected   = "ConfigProjected"
)

// Reasons of the store conditions (barbican-api.md §2.3).
const (
	ReasonCredentialsAvailable     = "CredentialsAvailable"
	ReasonWaitingForParent         = "WaitingForParent"
	ReasonWaitingForCredentials    = "WaitingForCredentials"
	ReasonInvalidCredentials       = "InvalidCredentials"
	ReasonInsufficientCapabilities = "InsufficientCapabilities"
	ReasonOpenBaoUnreachable       = "OpenBaoUnreachable"
	ReasonProvisioningDenied       = "ProvisioningDenied"
	ReasonProvisioned              = "Provisioned"
	ReasonInstanceNotFound         = "InstanceNotFound"
	ReasonWaitingForInstance       = "WaitingForInstance"
	ReasonWaitingForInstanceTLS    = "WaitingForInstanceTLS"
	ReasonInstanceNotProvisioned   = "InstanceNotProvisioned"
	ReasonConfigProjected          = "ConfigProjected"
	ReasonWaitingForProjection     = "WaitingForProjection"
)

// Identity of the Barbican operator.
const (
	Finalizer        = "barbican.openstack.c5c3.io/finalizer"
	AnnotationDomain = "barbican.c5c3.io"
	ServiceName      = "barbican"
	APIPort          = 9311
	// MaxNameLength bounds a Barbican's name on create: the 52-character
	// CronJob name cap minus "-db-clean".
	MaxNameLength = 43
	// MaxStoreNameLength bounds a store's name on create: 63 minus "-approle".
	MaxStoreNameLength = 55
)
