package controller

import (
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// Profile tells the shared steps the Placement's names and API.
var Profile = service.Profile{
	Kind: "Placement", Service: placementv1.ServiceName, ManagedBy: "placement-operator", Finalizer: placementv1.Finalizer,
	APIPort: placementv1.APIPort, ProbePath: "/", APICondition: placementv1.ConditionPlacementAPIReady,
	DBTLSDir: render.DBTLSDir, Owned: managerconfig.WorkloadKinds(),
}
