package webhook

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// Each webhook default of barbican-api.md §1.1, read back from a defaulted
// bare Barbican that has a uwsgi block.
func TestDefaultEachField(t *testing.T) {
	b := bare()
	b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
	if err := Defaulter.Default(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	at.CheckServiceDefaults(t, &b.Spec.ServiceSpec, "barbican", corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
	}, b.Spec.APIServer.UWSGI)
}

// apiServer.uwsgi sub-defaults only when the block is written, and dbClean
// is never touched: absent stays absent, a written block keeps its unset
// leaves.
func TestDefaultLeavesRenderTimeBlocks(t *testing.T) {
	for name, mut := range map[string]func(b *barbicanv1.Barbican){
		"all absent":              func(*barbicanv1.Barbican) {},
		"apiServer without uwsgi": func(b *barbicanv1.Barbican) { b.Spec.APIServer = &barbicanv1.APIServerSpec{} },
		"empty dbClean":           func(b *barbicanv1.Barbican) { b.Spec.DBClean = &barbicanv1.DBCleanSpec{} },
		"partial dbClean": func(b *barbicanv1.Barbican) {
			b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true, SoftDeleteExpiredSecrets: new(false)}
		},
	} {
		t.Run(name, func(t *testing.T) {
			b := bare()
			mut(b)
			want := b.Spec.DeepCopy()
			Apply(b)
			s := b.Spec
			if !equality.Semantic.DeepEqual(s.DBClean, want.DBClean) {
				t.Errorf("dbClean written: %+v, want %+v", s.DBClean, want.DBClean)
			}
			if !equality.Semantic.DeepEqual(s.APIServer, want.APIServer) {
				t.Errorf("apiServer written: %+v, want %+v", s.APIServer, want.APIServer)
			}
			if s.Middleware != nil || s.Plugins != nil || s.ExtraConfig != nil || s.SecretStoreRef != nil || s.Gateway != nil {
				t.Errorf("optional blocks written: %+v", s)
			}
			if d := s.Deployment; d.TerminationGracePeriodSeconds != nil || d.PreStopSleepSeconds != nil || d.Strategy != nil {
				t.Errorf("render-time deployment defaults persisted: %+v", d)
			}
		})
	}
}

func TestDefaultKeepsWrittenValues(t *testing.T) {
	b := bare()
	b.Spec.Deployment = &serviceapi.DeploymentSpec{Replicas: 1, Resources: corev1.ResourceRequirements{
		Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")}}}
	b.Spec.Cache.Backend = "oslo_cache.memcache_pool"
	b.Spec.Logging = &serviceapi.LoggingSpec{Level: "DEBUG", Debug: new(true)}
	b.Spec.ServiceUser.Username, b.Spec.ServiceUser.SecretRef.Key = "key-manager", "pw"
	b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Threads: 4, HTTPKeepAlive: new(false)}}
	Apply(b)
	s := b.Spec
	if s.Deployment.Replicas != 1 || len(s.Deployment.Resources.Requests) != 0 || len(s.Deployment.Resources.Limits) != 1 ||
		s.Cache.Backend != "oslo_cache.memcache_pool" || s.Logging.Level != "DEBUG" || !*s.Logging.Debug ||
		s.Logging.Format != "text" || s.ServiceUser.Username != "key-manager" || s.ServiceUser.SecretRef.Key != "pw" ||
		s.ServiceUser.ProjectName != "service" || s.APIServer.UWSGI.Threads != 4 || *s.APIServer.UWSGI.HTTPKeepAlive ||
		s.APIServer.UWSGI.Processes != 2 {
		t.Errorf("written values changed or partial blocks not completed: %+v", s)
	}
}
