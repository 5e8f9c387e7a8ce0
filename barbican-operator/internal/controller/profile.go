package controller

import (
	batchv1 "k8s.io/api/batch/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
)

// Profile tells the shared steps the Barbican's names and API. The route
// renders no request timeout: barbican answers short JSON requests. The
// config artefact is a Secret, because barbican.conf carries the AppRole's
// role ID. status.endpoint has no trailing slash: it equals host_href.
var Profile = service.Profile{
	Kind: "Barbican", Service: barbicanv1.ServiceName, ManagedBy: render.ManagedBy, Finalizer: barbicanv1.Finalizer,
	APIPort: barbicanv1.APIPort, ProbePath: "/healthcheck", APICondition: barbicanv1.ConditionBarbicanAPIReady,
	DBTLSDir: render.DBTLSDir, ConfigSecret: true, BareEndpoint: true, Owned: managerconfig.WorkloadKinds(&batchv1.CronJob{}),
}
