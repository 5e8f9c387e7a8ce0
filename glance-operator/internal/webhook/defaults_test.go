package webhook

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// bare has only the required fields, as a user writes it; valid is it
// defaulted, passing every rule.
func bare() *glancev1.Glance { return fixture.Bare("openstack", "glance") }

func valid() *glancev1.Glance {
	g := bare()
	Apply(g)
	return g
}

// Each default of glance-api.md §5, read back from a defaulted bare Glance.
func TestDefaultEachField(t *testing.T) {
	g := bare()
	g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
	if err := Defaulter.Default(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	at.CheckServiceDefaults(t, &g.Spec.ServiceSpec, "glance", corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi"), corev1.ResourceCPU: resource.MustParse("100m")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi"), corev1.ResourceCPU: resource.MustParse("500m")},
	}, g.Spec.APIServer.UWSGI)
	if g.Spec.APIServer.Workers != nil {
		t.Errorf("apiServer.workers defaulted to %d", *g.Spec.APIServer.Workers)
	}
}

// The blocks whose defaults resolve at render time stay exactly as written:
// nil stays nil, a written block keeps its unset leaves.
func TestDefaultNeverWritesRenderTimeBlocks(t *testing.T) {
	for name, mut := range map[string]func(g *glancev1.Glance){
		"all absent": func(*glancev1.Glance) {},
		"all present, leaves unset": func(g *glancev1.Glance) {
			g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{}
			g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Conversion: &glancev1.ConversionSpec{},
				InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"a": "b"}}}
			g.Spec.DBPurge = &glancev1.DBPurgeSpec{}
			g.Spec.Staging = &glancev1.StagingSpec{}
			g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
			g.Spec.APIServer = &glancev1.APIServerSpec{}
		},
	} {
		t.Run(name, func(t *testing.T) {
			g := bare()
			mut(g)
			want := g.Spec.DeepCopy()
			Apply(g)
			s := g.Spec
			for field, same := range map[string]bool{
				"importFiltering":                  equality.Semantic.DeepEqual(s.ImportFiltering, want.ImportFiltering),
				"importPlugins":                    equality.Semantic.DeepEqual(s.ImportPlugins, want.ImportPlugins),
				"dbPurge":                          equality.Semantic.DeepEqual(s.DBPurge, want.DBPurge),
				"staging":                          equality.Semantic.DeepEqual(s.Staging, want.Staging),
				"imageCache":                       equality.Semantic.DeepEqual(s.ImageCache, want.ImageCache),
				"apiServer":                        equality.Semantic.DeepEqual(s.APIServer, want.APIServer),
				"middleware, plugins, extraConfig": s.Middleware == nil && s.Plugins == nil && s.ExtraConfig == nil,
			} {
				if !same {
					t.Errorf("%s written by the defaulter: %+v", field, s)
				}
			}
		})
	}
}

func TestDefaultKeepsWrittenValues(t *testing.T) {
	g := bare()
	g.Spec.Deployment = &serviceapi.DeploymentSpec{Replicas: 5, Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}
	g.Spec.Cache.Backend = "oslo_cache.memcache_pool"
	g.Spec.Logging = &serviceapi.LoggingSpec{Level: "DEBUG", Debug: new(true)}
	g.Spec.ServiceUser.Username, g.Spec.ServiceUser.SecretRef.Key = "image", "pw"
	g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 4, HTTPKeepAlive: new(false)}}
	Apply(g)
	s := g.Spec
	if s.Deployment.Replicas != 5 || len(s.Deployment.Resources.Limits) != 0 || s.Cache.Backend != "oslo_cache.memcache_pool" ||
		s.Logging.Level != "DEBUG" || !*s.Logging.Debug || s.Logging.Format != "text" || s.ServiceUser.Username != "image" ||
		s.ServiceUser.SecretRef.Key != "pw" || s.APIServer.UWSGI.Processes != 4 || *s.APIServer.UWSGI.HTTPKeepAlive ||
		s.APIServer.UWSGI.Threads != 1 {
		t.Errorf("written values changed or partial blocks not completed: %+v", s)
	}
}

func TestDefaultBackendBucketURLFormat(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		s3       bool
	}{{"", glancev1.BucketURLPath, true}, {glancev1.BucketURLVirtual, glancev1.BucketURLVirtual, true}, {"", "", false}} {
		b := fixture.S3Backend("openstack", "minio", "glance", "s3-creds", true)
		if !tc.s3 {
			b.Spec.S3 = nil
		} else {
			b.Spec.S3.BucketURLFormat = tc.in
		}
		want := b.DeepCopy()
		if err := BackendDefaulter.Default(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		if tc.s3 {
			want.Spec.S3.BucketURLFormat = tc.want
		}
		if !equality.Semantic.DeepEqual(b, want) {
			t.Errorf("bucketURLFormat %q -> %+v, want %q and nothing else changed", tc.in, b.Spec.S3, tc.want)
		}
	}
}
