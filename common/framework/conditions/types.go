// Package conditions holds the condition types and reasons the service
// operators share, and the helpers that set them.
package conditions

// Condition types shared by the service operators. Each operator adds its API
// condition (e.g. PlacementAPIReady) in its own api package.
const (
	TypeReady              = "Ready"
	TypeSecretsReady       = "SecretsReady"
	TypeDatabaseReady      = "DatabaseReady"
	TypeDeploymentReady    = "DeploymentReady"
	TypeHPAReady           = "HPAReady"
	TypeNetworkPolicyReady = "NetworkPolicyReady"
	TypeHTTPRouteReady     = "HTTPRouteReady"
	TypeExtraConfigHealthy = "ExtraConfigHealthy"
)

// Reasons shared by the service operators.
const (
	ReasonAllReady    = "AllReady"
	ReasonNotAllReady = "NotAllReady"

	ReasonSecretsAvailable                 = "SecretsAvailable"
	ReasonTargetClusterUnavailable         = "TargetClusterUnavailable"
	ReasonSecretStoreNotReady              = "SecretStoreNotReady"
	ReasonWaitingForDBCredentials          = "WaitingForDBCredentials"
	ReasonWaitingForServiceUserCredentials = "WaitingForServiceUserCredentials"
	ReasonConfigError                      = "ConfigError"

	ReasonDatabaseSynced        = "DatabaseSynced"
	ReasonClusterNotReady       = "ClusterNotReady"
	ReasonWaitingForDatabase    = "WaitingForDatabase"
	ReasonDBSyncInProgress      = "DBSyncInProgress"
	ReasonDBSyncFailed          = "DBSyncFailed"
	ReasonVersionParseError     = "VersionParseError"
	ReasonDowngradeNotSupported = "DowngradeNotSupported"
	ReasonUpgradePathInvalid    = "UpgradePathInvalid"
	ReasonImageReleaseMismatch  = "ImageReleaseMismatch"

	ReasonDeploymentReady      = "DeploymentReady"
	ReasonWaitingForDeployment = "WaitingForDeployment"

	ReasonAPIHealthy         = "APIHealthy"
	ReasonAPIUnhealthy       = "APIUnhealthy"
	ReasonEndpointNotReady   = "EndpointNotReady"
	ReasonHealthCheckTimeout = "HealthCheckTimeout"
	ReasonConnectionFailed   = "ConnectionFailed"
	ReasonHealthCheckFailed  = "HealthCheckFailed"

	ReasonHPAReady       = "HPAReady"
	ReasonHPANotRequired = "HPANotRequired"

	ReasonNetworkPolicyReady       = "NetworkPolicyReady"
	ReasonNetworkPolicyNotRequired = "NetworkPolicyNotRequired"

	ReasonHTTPRouteAccepted      = "HTTPRouteAccepted"
	ReasonHTTPRouteNotRequired   = "HTTPRouteNotRequired"
	ReasonHTTPRouteNotAccepted   = "HTTPRouteNotAccepted"
	ReasonGatewayAPINotInstalled = "GatewayAPINotInstalled"
	ReasonCapabilityProbeFailed  = "CapabilityProbeFailed"

	ReasonNoOwnedKeysOverridden = "NoOwnedKeysOverridden"
	ReasonOwnedKeysOverridden   = "OwnedKeysOverridden"
)
