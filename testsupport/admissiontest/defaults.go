package admissiontest

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// CheckServiceDefaults reports each shared webhook default a defaulted spec
// lacks: the resources res, 3 replicas, the default cache backend, text
// logging at INFO without debug, the service user of service, and the
// uwsgi sub-defaults of u, the uwsgi block the test wrote.
func CheckServiceDefaults(t *testing.T, s *serviceapi.ServiceSpec, service string, res corev1.ResourceRequirements, u *serviceapi.UWSGISpec) {
	t.Helper()
	for field, ok := range map[string]bool{
		"deployment.resources": s.Deployment != nil && equality.Semantic.DeepEqual(s.Deployment.Resources, res),
		"deployment.replicas":  s.Deployment != nil && s.Deployment.Replicas == 3,
		"cache.backend":        s.Cache.Backend == serviceapi.DefaultCacheBackend,
		"logging":              s.Logging != nil && s.Logging.Format == "text" && s.Logging.Level == "INFO" && s.Logging.Debug != nil && !*s.Logging.Debug,
		"serviceUser": s.ServiceUser == serviceapi.ServiceUserSpec{Username: service, ProjectName: "service",
			UserDomainName: "Default", ProjectDomainName: "Default",
			SecretRef: serviceapi.SecretKeyRef{Name: service + "-service-user", Key: "password"}},
		"apiServer.uwsgi": u != nil && u.Processes == 2 && u.Threads == 1 && u.HTTPKeepAlive != nil && *u.HTTPKeepAlive &&
			u.Harakiri == nil && u.HTTPKeepAliveTimeout == nil,
	} {
		if !ok {
			t.Errorf("%s not defaulted as specified: %+v", field, s)
		}
	}
}
