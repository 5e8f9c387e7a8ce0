package admit

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// bare is a shared spec with only the required fields, as a user writes them.
func bare() *serviceapi.ServiceSpec {
	return &serviceapi.ServiceSpec{
		OpenStackRelease: "2025.2",
		Image:            serviceapi.ImageSpec{Repository: "registry.example.org/openstack/svc", Tag: "2025.2"},
		Database: serviceapi.DatabaseSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"}, Database: "svc",
			SecretRef: serviceapi.SecretKeyRef{Name: "svc-db"}},
		Cache:            serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}},
		KeystoneEndpoint: "http://keystone-api.openstack.svc:5000/v3",
		ServiceUser:      serviceapi.ServiceUserSpec{SecretRef: serviceapi.SecretKeyRef{Name: "svc-user"}},
	}
}

var testDefaults = ServiceDefaults{Service: "svc", Resources: Resources("100m", "512Mi", "500m", "1Gi")}

// Each default, as the field it fills and the value it must hold after Apply.
func TestApplyFillsEachDefault(t *testing.T) {
	s, u := bare(), &serviceapi.UWSGISpec{}
	testDefaults.Apply(s, u)
	for name, ok := range map[string]bool{
		"deployment.resources": equality.Semantic.DeepEqual(s.Deployment.Resources, Resources("100m", "512Mi", "500m", "1Gi")),
		"deployment.replicas":  s.Deployment.Replicas == 3,
		"cache.backend":        s.Cache.Backend == "dogpile.cache.pymemcache",
		"logging":              s.Logging.Format == "text" && s.Logging.Level == "INFO" && s.Logging.Debug != nil && !*s.Logging.Debug,
		"serviceUser identity": s.ServiceUser.Username == "svc" && s.ServiceUser.ProjectName == "service" &&
			s.ServiceUser.UserDomainName == "Default" && s.ServiceUser.ProjectDomainName == "Default",
		"serviceUser.secretRef.key": s.ServiceUser.SecretRef.Key == "password",
		"uwsgi leaves":              u.Processes == 2 && u.Threads == 1 && u.HTTPKeepAlive != nil && *u.HTTPKeepAlive,
		"uwsgi optional leaves":     u.Harakiri == nil && u.HTTPKeepAliveTimeout == nil,
		"render-time defaults": s.SecretStoreRef == nil && s.Deployment.Strategy == nil && s.Deployment.TopologySpreadConstraints == nil &&
			s.Deployment.TerminationGracePeriodSeconds == nil && s.Deployment.PreStopSleepSeconds == nil && s.Database.CredentialsMode == "",
	} {
		if !ok {
			t.Errorf("%s wrong after Apply: %+v", name, s)
		}
	}
}

// The operator's resource values are its own, and copied, not shared.
func TestApplyUsesAndCopiesOperatorResources(t *testing.T) {
	d := ServiceDefaults{Service: "other", Resources: Resources("1", "2Gi", "2", "4Gi")}
	s := bare()
	d.Apply(s, nil)
	if got := s.Deployment.Resources.Requests[corev1.ResourceMemory]; got.String() != "2Gi" {
		t.Errorf("memory request = %s", got.String())
	}
	s.Deployment.Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1Ti")
	if got := d.Resources.Requests[corev1.ResourceMemory]; got.String() != "2Gi" {
		t.Errorf("defaults changed through an object: %s", got.String())
	}
	if s.ServiceUser.Username != "other" {
		t.Errorf("username = %q", s.ServiceUser.Username)
	}
}

func TestApplyNeverOverwritesAndIsIdempotent(t *testing.T) {
	s := bare()
	s.Deployment = &serviceapi.DeploymentSpec{Replicas: 1, PreStopSleepSeconds: new(int64(0)),
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}},
		Strategy:  &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}}
	s.Cache.Backend = "dogpile.cache.memcached"
	s.Logging = &serviceapi.LoggingSpec{Format: "json", Level: "ERROR", Debug: new(true)}
	s.ServiceUser = serviceapi.ServiceUserSpec{Username: "u", ProjectName: "p", UserDomainName: "ud", ProjectDomainName: "pd",
		SecretRef: serviceapi.SecretKeyRef{Name: "s", Key: "k"}}
	u := &serviceapi.UWSGISpec{Processes: 8, Threads: 4, HTTPKeepAlive: new(false)}
	wantS, wantU := s.DeepCopy(), u.DeepCopy()
	testDefaults.Apply(s, u)
	if !equality.Semantic.DeepEqual(s, wantS) || !equality.Semantic.DeepEqual(u, wantU) {
		t.Errorf("Apply changed set values:\n%+v\n%+v", s, u)
	}
	s = bare()
	testDefaults.Apply(s, nil)
	once := s.DeepCopy()
	testDefaults.Apply(s, nil)
	if !equality.Semantic.DeepEqual(s, once) {
		t.Errorf("second Apply changed the spec")
	}
}

// A required block the user left out stays out, so the schema refuses it as
// missing; a partial block gets the rest.
func TestApplyLeavesOmittedRequiredBlocksOut(t *testing.T) {
	s := bare()
	s.Cache, s.ServiceUser = serviceapi.CacheSpec{}, serviceapi.ServiceUserSpec{}
	testDefaults.Apply(s, nil)
	if s.Cache.Backend != "" || s.ServiceUser != (serviceapi.ServiceUserSpec{}) {
		t.Errorf("omitted blocks materialized: cache %+v, serviceUser %+v", s.Cache, s.ServiceUser)
	}
	s = bare()
	s.ServiceUser = serviceapi.ServiceUserSpec{Username: "svc"}
	testDefaults.Apply(s, nil)
	if s.ServiceUser.ProjectName != "service" || s.ServiceUser.SecretRef != (serviceapi.SecretKeyRef{}) {
		t.Errorf("serviceUser = %+v, want identity defaults and no secretRef", s.ServiceUser)
	}
}
