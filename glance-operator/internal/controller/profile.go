package controller

import (
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	batchv1 "k8s.io/api/batch/v1"
)

// Profile tells the shared steps the Glance's names and API. The route's
// 4h request timeout lets a long image transfer finish through the gateway.
var Profile = service.Profile{
	Kind: "Glance", Service: glancev1.ServiceName, ManagedBy: render.ManagedBy, Finalizer: glancev1.Finalizer,
	APIPort: glancev1.APIPort, ProbePath: "/healthcheck", APICondition: glancev1.ConditionGlanceAPIReady,
	DBTLSDir: render.DBTLSDir, RouteTimeout: "4h", Owned: managerconfig.WorkloadKinds(&batchv1.CronJob{}),
}
