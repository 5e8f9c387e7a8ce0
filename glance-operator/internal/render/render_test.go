package render_test

import (
	"flag"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// go test ./internal/render/ -update rewrites the golden files; review every
// changed golden against glance-api.md §6-§9 before accepting it.
var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const (
	testConfigMap = "glance-config-0a1b2c3d"
	testBackends  = "glance-backends-4e5f6a7b"
	testDBTarget  = "d0e1"
)

var testEnabled = []string{"ceph-rgw", "minio"}

// minimal is the smallest admissible Glance, defaulted as the mutating
// webhook persists it (resources, replicas, cache backend, logging, service user).
func minimal() *glancev1.Glance {
	g := fixture.Bare("openstack", "glance")
	g.Spec.Deployment = &serviceapi.DeploymentSpec{
		Replicas: 3,
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		},
	}
	g.Spec.Cache.Backend = serviceapi.DefaultCacheBackend
	g.Spec.Logging = &serviceapi.LoggingSpec{Format: serviceapi.LogFormatText, Level: "INFO", Debug: new(false)}
	u := &g.Spec.ServiceUser
	u.Username, u.ProjectName, u.UserDomainName, u.ProjectDomainName, u.SecretRef.Key = "glance", "service", "Default", "Default", "password"
	return g
}

// full turns on everything at 2026.1: uwsgi tuning, image cache, import
// plugins and filtering, middleware on both sides, plugins, extraConfig, TLS.
func full() *glancev1.Glance {
	g := minimal()
	g.Spec.OpenStackRelease = "2026.1"
	g.Spec.Image = serviceapi.ImageSpec{Repository: "registry.example.org/openstack/glance", Digest: "sha256:" + strings.Repeat("ab", 32)}
	g.Spec.Region = "RegionTwo"
	g.Spec.Cache = serviceapi.CacheSpec{Servers: []string{"memcached-0.memcached:11211", "memcached-1.memcached:11211"}, Backend: serviceapi.DefaultCacheBackend}
	g.Spec.KeystonePublicEndpoint = "https://keystone.example.org/v3"
	g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{
		Processes: 4, Threads: 2, HTTPKeepAlive: new(true), HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20)),
	}}
	g.Spec.Database.TLS = &serviceapi.DatabaseTLS{
		Mode:                serviceapi.TLSVerifyFull,
		CABundleSecretRef:   &serviceapi.SecretKeyRef{Name: "db-ca"},
		ClientCertSecretRef: &serviceapi.SecretKeyRef{Name: "db-client"},
	}
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{
		SizeLimit:           new(resource.MustParse("20Gi")),
		MaintenanceInterval: &metav1.Duration{Duration: 90_500_000_000}, // 90.5 s rounds up to 91
	}
	g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: new(resource.MustParse("50Gi"))}
	g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{
		AllowedSchemes:  []string{"http", "https"},
		DisallowedHosts: []string{"metadata.internal", "localhost"},
		AllowedPorts:    []int32{},
		DisallowedPorts: []int32{22, 3306},
	}
	g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{
		Decompression:  &glancev1.DecompressionSpec{},
		Conversion:     &glancev1.ConversionSpec{OutputFormat: glancev1.FormatQCOW2},
		InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"owner_team": "cloud", "hw_rng_model": "virtio"}, IgnoreUserRoles: []string{"admin", "image_uploader"}},
	}
	g.Spec.Middleware = []serviceapi.MiddlewareSpec{
		{Name: "audit", FilterFactory: "auditmiddleware:filter_factory", Position: serviceapi.MiddlewareAfter,
			Config: map[string]string{"audit_map_file": "/etc/glance/audit_map.yaml", "log_format": "%(asctime)s 100%"}},
		{Name: "request_id", FilterFactory: "oslo_middleware:RequestId.factory", Position: serviceapi.MiddlewareBefore},
		{Name: "sizelimit", FilterFactory: "oslo_middleware:RequestBodySizeLimiter.factory", Position: serviceapi.MiddlewareBefore},
	}
	g.Spec.Plugins = []serviceapi.PluginSpec{
		{Name: "profiler", ConfigSection: "profiler", Config: map[string]string{"enabled": "true", "trace_sqlalchemy": "false"}},
		{Name: "store tuning", ConfigSection: "glance_store", Config: map[string]string{"default_backend": "plugin-loses", "s3_store_thread_pools": "20"}},
	}
	g.Spec.ExtraConfig = map[string]map[string]string{
		"DEFAULT":           {"show_image_direct_url": "false", "enabled_import_methods": "[glance-direct,web-download]"},
		"profiler":          {"enabled": "false"},
		"taskflow_executor": {"max_workers": "4"},
	}
	g.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(2)), MaxReplicas: 6, TargetCPUUtilization: new(int32(70))}
	return g
}

// jsonPolicy: JSON logging, policy overrides, eventlet workers, unbounded
// staging, middleware without the image cache.
func jsonPolicy() *glancev1.Glance {
	g := minimal()
	g.Spec.Logging = &serviceapi.LoggingSpec{
		Format: serviceapi.LogFormatJSON, Level: "WARNING", Debug: new(true),
		PerLoggerLevels: map[string]serviceapi.LogLevel{"glance_store": "DEBUG", "oslo_policy": "ERROR"},
	}
	g.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{Rules: map[string]string{"publicize_image": "role:admin", "copy_image": "role:admin or role:member"}}
	g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(4))}
	g.Spec.Staging = &glancev1.StagingSpec{Unbounded: true}
	g.Spec.Middleware = []serviceapi.MiddlewareSpec{
		{Name: "cache", FilterFactory: "example.cache:Filter.factory", Position: serviceapi.MiddlewareAfter},
		{Name: "healthcheck_proxy", FilterFactory: "example.proxy:Filter.factory", Position: serviceapi.MiddlewareBefore, Config: map[string]string{"mode": "strict"}},
	}
	return g
}

type renderCase struct {
	name     string
	g        *glancev1.Glance
	policy   map[string]string
	digests  render.Digests
	wantKeys []string // ConfigMap data keys
}

func renderCases() []renderCase {
	jp := jsonPolicy()
	return []renderCase{
		{name: "minimal", g: minimal(), wantKeys: []string{render.KeyGlanceAPIConf, render.KeyPasteINI}},
		{name: "full", g: full(), digests: render.Digests{Authtoken: "a1b2", DBConnection: "c3d4"},
			wantKeys: []string{render.KeyGlanceAPIConf, render.KeyPasteINI}},
		{name: "json-policy", g: jp, policy: osconfig.MergePolicy(nil, jp.Spec.PolicyOverrides.Rules), digests: render.Digests{Authtoken: "a1b2"},
			wantKeys: []string{render.KeyGlanceAPIConf, render.KeyPasteINI, render.KeyLogging, render.KeyPolicy}},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			data, err := render.ConfigData(tc.g, testEnabled, "minio", tc.policy)
			if err != nil {
				t.Fatalf("ConfigData: %v", err)
			}
			keys := slices.Sorted(maps.Keys(data))
			if want := slices.Sorted(slices.Values(tc.wantKeys)); !slices.Equal(keys, want) {
				t.Errorf("ConfigMap keys = %v, want %v", keys, want)
			}
			for _, key := range []string{render.KeyGlanceAPIConf, render.KeyPasteINI, render.KeyLogging, render.KeyPolicy} {
				checkGolden(t, tc.name+"."+key, data[key], slices.Contains(tc.wantKeys, key))
			}
			checkGolden(t, tc.name+".deployment.yaml", marshal(t, render.Deployment(tc.g, testConfigMap, testBackends, tc.digests)), true)
			checkGolden(t, tc.name+".db-sync-job.yaml", marshal(t, render.DBSyncJob(tc.g, testConfigMap, testDBTarget)), true)
			checkGolden(t, tc.name+".argv", argv(t, render.Command(tc.g)), true)
		})
	}
}

func marshal(t testing.TB, obj any) string {
	t.Helper()
	b, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// argv renders one quoted token per line, so a token boundary is visible.
func argv(t testing.TB, args []string) string {
	t.Helper()
	var b strings.Builder
	for _, a := range args {
		b.WriteString(strconv.Quote(a) + "\n")
	}
	return b.String()
}

// checkGolden compares got with testdata/<name>.golden (testenv.Golden).
func checkGolden(t *testing.T, name, got string, want bool) {
	t.Helper()
	testenv.Golden(t, name, got, want, *update)
}
