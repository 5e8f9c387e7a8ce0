package v1alpha1

import "github.com/c5c3/openstack-operators/common/conditions"

// Condition types of a Glance. Ready aggregates the nine sub-conditions of
// the step table; ExtraConfigHealthy is reported and never aggregated.
const (
	ConditionReady              = conditions.TypeReady
	ConditionSecretsReady       = conditions.TypeSecretsReady
	ConditionBackendsReady      = "BackendsReady"
	ConditionDatabaseReady      = conditions.TypeDatabaseReady
	ConditionDeploymentReady    = conditions.TypeDeploymentReady
	ConditionGlanceAPIReady     = "GlanceAPIReady"
	ConditionHPAReady           = conditions.TypeHPAReady
	ConditionNetworkPolicyReady = conditions.TypeNetworkPolicyReady
	ConditionHTTPRouteReady     = conditions.TypeHTTPRouteReady
	ConditionDBPurgeReady       = "DBPurgeReady"
	ConditionExtraConfigHealthy = conditions.TypeExtraConfigHealthy
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
