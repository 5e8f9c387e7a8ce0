package v1alpha1

// Condition types only a Glance has. Ready aggregates these and the shared
// ones of the step table (common/framework/conditions: SecretsReady, DatabaseReady,
// DeploymentReady, HPAReady, NetworkPolicyReady, HTTPRouteReady);
// ExtraConfigHealthy is reported and never aggregated.
const (
	ConditionBackendsReady  = "BackendsReady"
	ConditionGlanceAPIReady = "GlanceAPIReady"
	ConditionDBPurgeReady   = "DBPurgeReady"
)

// Reasons of the Glance-only conditions.
const (
	ReasonAllBackendsProjected = "AllBackendsProjected"
	ReasonWaitingForBackends   = "WaitingForBackends"
	ReasonNoDefaultBackend     = "NoDefaultBackend"
	ReasonDBPurgeScheduled     = "DBPurgeScheduled"
	ReasonDBPurgeSuspended     = "DBPurgeSuspended"
	ReasonDBPurgeJobFailed     = "DBPurgeJobFailed"
)

// Condition types and reasons of a GlanceBackend, written by its controller only.
const (
	ConditionCredentialsReady = "CredentialsReady"
	ConditionConfigProjected  = "ConfigProjected"

	ReasonCredentialsAvailable  = "CredentialsAvailable"
	ReasonWaitingForCredentials = "WaitingForCredentials"
	ReasonWaitingForParent      = "WaitingForParent"
	ReasonConfigProjected       = "ConfigProjected"
	ReasonWaitingForProjection  = "WaitingForProjection"
)

// Identity of the Glance operator.
const (
	Finalizer        = "glance.openstack.c5c3.io/finalizer"
	AnnotationDomain = "glance.c5c3.io"
	ServiceName      = "glance"
	APIPort          = 9292
)
