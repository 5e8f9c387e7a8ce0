package v1alpha1

import "github.com/c5c3/openstack-operators/common/framework/conditions"

// Condition types of a Placement. Ready aggregates the seven sub-conditions;
// ExtraConfigHealthy is reported and never aggregated.
const (
	ConditionReady              = conditions.TypeReady
	ConditionSecretsReady       = conditions.TypeSecretsReady
	ConditionDatabaseReady      = conditions.TypeDatabaseReady
	ConditionDeploymentReady    = conditions.TypeDeploymentReady
	ConditionPlacementAPIReady  = "PlacementAPIReady"
	ConditionHPAReady           = conditions.TypeHPAReady
	ConditionNetworkPolicyReady = conditions.TypeNetworkPolicyReady
	ConditionHTTPRouteReady     = conditions.TypeHTTPRouteReady
	ConditionExtraConfigHealthy = conditions.TypeExtraConfigHealthy
)

// Identity of the Placement operator.
const (
	Finalizer        = "placement.openstack.c5c3.io/finalizer"
	AnnotationDomain = "placement.c5c3.io"
	ServiceName      = "placement"
	APIPort          = 8778
)
