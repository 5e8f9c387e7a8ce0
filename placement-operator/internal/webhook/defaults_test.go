package webhook

import (
	"context"
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
)

// bare is a Placement with only the required fields, as a user writes it.
func bare() *placementv1.Placement {
	return fixture.Bare("openstack", "placement")
}

func quantities(cpu, mem string) corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}
}

func TestDefaultFillsEveryWebhookDefault(t *testing.T) {
	p := bare()
	if err := (Defaulter{}).Default(context.Background(), p); err != nil {
		t.Fatalf("Default: %v", err)
	}
	s := p.Spec
	if s.Deployment == nil {
		t.Fatal("deployment block not materialized")
	}
	want := corev1.ResourceRequirements{Requests: quantities("100m", "512Mi"), Limits: quantities("500m", "1Gi")}
	if !equality.Semantic.DeepEqual(s.Deployment.Resources, want) {
		t.Errorf("resources = %+v, want %+v", s.Deployment.Resources, want)
	}
	if s.Deployment.Replicas != 3 {
		t.Errorf("replicas = %d, want 3", s.Deployment.Replicas)
	}
	if s.Cache.Backend != "dogpile.cache.pymemcache" {
		t.Errorf("cache.backend = %q", s.Cache.Backend)
	}
	if l := s.Logging; l == nil || l.Format != "text" || l.Level != "INFO" || l.Debug == nil || *l.Debug {
		t.Errorf("logging = %+v, want text/INFO/debug false", l)
	}
	u := s.ServiceUser
	if u.Username != "placement" || u.ProjectName != "service" || u.UserDomainName != "Default" ||
		u.ProjectDomainName != "Default" || u.SecretRef.Key != "password" {
		t.Errorf("serviceUser = %+v", u)
	}
}

// The spec's untouched list: defaults of these apply at render time only.
func TestDefaultLeavesRenderOnlyDefaultsUnset(t *testing.T) {
	p := bare()
	Apply(p)
	s := p.Spec
	switch {
	case s.Database.CredentialsMode != "":
		t.Errorf("credentialsMode = %q", s.Database.CredentialsMode)
	case s.Database.TLS != nil:
		t.Errorf("database.tls = %+v", s.Database.TLS)
	case s.Database.Port != 0:
		t.Errorf("database.port = %d", s.Database.Port)
	case s.SecretStoreRef != nil:
		t.Errorf("secretStoreRef = %+v", s.SecretStoreRef)
	case s.APIServer != nil:
		t.Errorf("apiServer = %+v", s.APIServer)
	case s.Deployment.TerminationGracePeriodSeconds != nil:
		t.Errorf("terminationGracePeriodSeconds = %d", *s.Deployment.TerminationGracePeriodSeconds)
	case s.Deployment.PreStopSleepSeconds != nil:
		t.Errorf("preStopSleepSeconds = %d", *s.Deployment.PreStopSleepSeconds)
	case s.Deployment.Strategy != nil:
		t.Errorf("strategy = %+v", s.Deployment.Strategy)
	case s.Deployment.TopologySpreadConstraints != nil:
		t.Errorf("topologySpreadConstraints = %+v", s.Deployment.TopologySpreadConstraints)
	case s.Deployment.PriorityClassName != nil, s.Autoscaling != nil, s.Gateway != nil, s.NetworkPolicy != nil,
		s.PolicyOverrides != nil, s.TargetClusterRef != nil, s.Region != "", s.KeystonePublicEndpoint != "":
		t.Errorf("optional block materialized: %+v", s)
	}
}

func TestDefaultNeverOverwrites(t *testing.T) {
	p := bare()
	p.Spec.Deployment = &serviceapi.DeploymentSpec{
		Replicas:                      1,
		Resources:                     corev1.ResourceRequirements{Requests: quantities("1", "2Gi"), Limits: quantities("2", "4Gi")},
		TerminationGracePeriodSeconds: new(int64(60)),
		PreStopSleepSeconds:           new(int64(0)),
		Strategy:                      &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
		TopologySpreadConstraints:     []corev1.TopologySpreadConstraint{},
	}
	p.Spec.Cache.Backend = "dogpile.cache.memcached"
	p.Spec.Logging = &serviceapi.LoggingSpec{Format: "json", Level: "ERROR", Debug: new(true)}
	p.Spec.ServiceUser = serviceapi.ServiceUserSpec{Username: "svc", ProjectName: "admin", UserDomainName: "users",
		ProjectDomainName: "projects", SecretRef: serviceapi.SecretKeyRef{Name: "s", Key: "pw"}}
	p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 8, Threads: 4,
		HTTPKeepAlive: new(false), Harakiri: new(int32(10))}}
	want := p.DeepCopy()
	Apply(p)
	if !equality.Semantic.DeepEqual(p, want) {
		t.Errorf("Apply changed set values:\ngot  %+v\nwant %+v", p.Spec, want.Spec)
	}
}

func TestDefaultIsIdempotent(t *testing.T) {
	p := bare()
	p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
	Apply(p)
	once := p.DeepCopy()
	Apply(p)
	if !equality.Semantic.DeepEqual(p, once) {
		t.Errorf("second Apply changed the object")
	}
}

func TestDefaultResourcesOnlyWhenBothMapsEmpty(t *testing.T) {
	cases := []struct {
		name string
		in   corev1.ResourceRequirements
		want corev1.ResourceRequirements
	}{
		{"both nil", corev1.ResourceRequirements{},
			corev1.ResourceRequirements{Requests: quantities("100m", "512Mi"), Limits: quantities("500m", "1Gi")}},
		{"both empty maps", corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}},
			corev1.ResourceRequirements{Requests: quantities("100m", "512Mi"), Limits: quantities("500m", "1Gi")}},
		{"requests only", corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}},
			corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}}},
		{"limits only", corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")}},
			corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := bare()
			p.Spec.Deployment = &serviceapi.DeploymentSpec{Resources: tc.in}
			Apply(p)
			if !equality.Semantic.DeepEqual(p.Spec.Deployment.Resources, tc.want) {
				t.Errorf("resources = %+v, want %+v", p.Spec.Deployment.Resources, tc.want)
			}
		})
	}
}

func TestDefaultUWSGILeavesOnlyWhenBlockPresent(t *testing.T) {
	t.Run("no apiServer", func(t *testing.T) {
		p := bare()
		Apply(p)
		if p.Spec.APIServer != nil {
			t.Errorf("apiServer materialized: %+v", p.Spec.APIServer)
		}
	})
	t.Run("apiServer without uwsgi", func(t *testing.T) {
		p := bare()
		p.Spec.APIServer = &placementv1.APIServerSpec{}
		Apply(p)
		if p.Spec.APIServer.UWSGI != nil {
			t.Errorf("uwsgi materialized: %+v", p.Spec.APIServer.UWSGI)
		}
	})
	t.Run("empty uwsgi block", func(t *testing.T) {
		p := bare()
		p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
		Apply(p)
		u := p.Spec.APIServer.UWSGI
		if u.Processes != 2 || u.Threads != 1 || u.HTTPKeepAlive == nil || !*u.HTTPKeepAlive {
			t.Errorf("uwsgi = %+v, want processes 2, threads 1, httpKeepAlive true", u)
		}
		if u.Harakiri != nil || u.HTTPKeepAliveTimeout != nil {
			t.Errorf("harakiri/httpKeepAliveTimeout defaulted: %+v", u)
		}
	})
	t.Run("explicit keepalive false honoured", func(t *testing.T) {
		p := bare()
		p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{HTTPKeepAlive: new(false)}}
		Apply(p)
		if u := p.Spec.APIServer.UWSGI; *u.HTTPKeepAlive || u.Processes != 2 || u.Threads != 1 {
			t.Errorf("uwsgi = %+v", u)
		}
	})
}

func TestDefaultLoggingPartialBlock(t *testing.T) {
	p := bare()
	p.Spec.Logging = &serviceapi.LoggingSpec{Format: "json", PerLoggerLevels: map[string]serviceapi.LogLevel{"amqp": "ERROR"}}
	Apply(p)
	l := p.Spec.Logging
	if l.Format != "json" || l.Level != "INFO" || l.Debug == nil || *l.Debug || l.PerLoggerLevels["amqp"] != "ERROR" {
		t.Errorf("logging = %+v", l)
	}
}

func TestDefaultReplicasKeptUnderAutoscaling(t *testing.T) {
	p := bare()
	p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
	p.Spec.Deployment = &serviceapi.DeploymentSpec{Replicas: 2}
	Apply(p)
	if p.Spec.Deployment.Replicas != 2 || p.Spec.Autoscaling.MinReplicas != nil {
		t.Errorf("replicas = %d, minReplicas = %v", p.Spec.Deployment.Replicas, p.Spec.Autoscaling.MinReplicas)
	}
}

// A required block the user left out stays out, so the schema refuses it as
// missing; defaults fill only blocks the user wrote.
func TestDefaultLeavesOmittedRequiredBlocksOut(t *testing.T) {
	p := bare()
	p.Spec.Cache = serviceapi.CacheSpec{}
	p.Spec.ServiceUser = serviceapi.ServiceUserSpec{}
	Apply(p)
	if !reflect.ValueOf(p.Spec.Cache).IsZero() {
		t.Errorf("cache materialized: %+v", p.Spec.Cache)
	}
	if p.Spec.ServiceUser != (serviceapi.ServiceUserSpec{}) {
		t.Errorf("serviceUser materialized: %+v", p.Spec.ServiceUser)
	}

	p = bare()
	p.Spec.ServiceUser = serviceapi.ServiceUserSpec{Username: "svc"}
	Apply(p)
	if u := p.Spec.ServiceUser; u.ProjectName != "service" || u.SecretRef != (serviceapi.SecretKeyRef{}) {
		t.Errorf("serviceUser = %+v, want identity defaults and no secretRef", u)
	}

	p = bare()
	p.Spec.Cache = serviceapi.CacheSpec{Replicas: 3} // the schema default of a written `cache: {}`
	Apply(p)
	if p.Spec.Cache.Backend != serviceapi.DefaultCacheBackend {
		t.Errorf("cache.backend = %q in a written cache block", p.Spec.Cache.Backend)
	}
}
