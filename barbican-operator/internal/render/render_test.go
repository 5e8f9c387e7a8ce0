package render_test

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// go test ./internal/render/ -update rewrites the golden files; review every
// changed golden against barbican-api.md §4-§5 before accepting it.
var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const (
	testConfigSecret = "barbican-config-0a1b2c3d"
	testDBTarget     = "d0e1"
	testRoleID       = "5b7f3c1e-role-id"
)

// minimal is the smallest admissible Barbican at 2025.2, defaulted as the
// mutating webhook persists it.
func minimal() *barbicanv1.Barbican {
	b := &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Name: "barbican", Namespace: "openstack"}}
	s := &b.Spec
	s.OpenStackRelease = "2025.2"
	s.Image = serviceapi.ImageSpec{Repository: "registry.example.org/openstack/barbican", Tag: "2025.2"}
	s.Deployment = &serviceapi.DeploymentSpec{
		Replicas: 3,
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
		},
	}
	s.Database = serviceapi.DatabaseSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"}, Database: "barbican",
		SecretRef: serviceapi.SecretKeyRef{Name: "barbican-db"}}
	s.Cache = serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}, Backend: serviceapi.DefaultCacheBackend}
	s.KeystoneEndpoint = "http://keystone.openstack.svc:5000/v3"
	s.ServiceUser = serviceapi.ServiceUserSpec{Username: "barbican", ProjectName: "service", UserDomainName: "Default",
		ProjectDomainName: "Default", SecretRef: serviceapi.SecretKeyRef{Name: "barbican-keystone", Key: "password"}}
	s.Logging = &serviceapi.LoggingSpec{Format: serviceapi.LogFormatText, Level: "INFO", Debug: new(false)}
	return b
}

// managedStore is a managed store: in-cluster URL, CA, fixed mount.
func managedStore() render.Store {
	return render.Store{Name: "openbao", Default: true, URL: "https://openbao.openstack.svc:8200",
		KVMountpoint: "barbican", RoleID: testRoleID, HasCA: true}
}

// brownfield is 2025.2 against an existing server: no CA (system trust), an
// OpenBao namespace, extraOptions with operator and denied keys, a second
// non-default store, middleware on both sides and an external database.
func brownfield() *barbicanv1.Barbican {
	b := minimal()
	b.Spec.Database = serviceapi.DatabaseSpec{Host: "db.example.org", Port: 3307, Database: "barbican",
		SecretRef: serviceapi.SecretKeyRef{Name: "barbican-db"}}
	b.Spec.Cache = serviceapi.CacheSpec{Servers: []string{"mc-0.example.org:11211", "mc-1.example.org:11212"}, Backend: serviceapi.DefaultCacheBackend}
	b.Spec.Middleware = []serviceapi.MiddlewareSpec{
		{Name: "sizelimit", FilterFactory: "oslo_middleware:RequestBodySizeLimiter.factory", Position: serviceapi.MiddlewareBefore},
		{Name: "audit_v2", FilterFactory: "keystonemiddleware.audit:filter_factory", Position: serviceapi.MiddlewareAfter,
			Config: map[string]string{"audit_map_file": "/etc/barbican/audit.conf"}},
	}
	return b
}

func brownfieldStores() []render.Store {
	return []render.Store{
		{Name: "vault-archive", URL: "https://archive.example.org:8200", RoleID: "archive-role", HasCA: true},
		{Name: "vault-prod", Default: true, URL: "https://vault.example.org", KVMountpoint: "kv-barbican",
			Namespace: "tenants/cloud", RoleID: testRoleID,
			ExtraOptions: map[string]string{
				"timeout": "30", "ssl_verify": "true",
				"vault_url": "https://attacker.example.org", "approle_secret_id": "leak", "root_token_id": "root",
				"global_default": "False", "namespace": "other",
			}},
	}
}

// full turns on everything at 2026.1: uwsgi tuning, policy overrides,
// plugins, extraConfig (overriding one owned key), middleware on both sides,
// database TLS, gateway, region and autoscaling.
func full() *barbicanv1.Barbican {
	b := minimal()
	s := &b.Spec
	s.OpenStackRelease = "2026.1"
	s.Image = serviceapi.ImageSpec{Repository: "registry.example.org/openstack/barbican", Digest: "sha256:" + strings.Repeat("ab", 32)}
	s.Region = "RegionTwo"
	s.KeystonePublicEndpoint = "https://keystone.example.org/v3"
	s.Gateway = &serviceapi.GatewaySpec{Hostname: "key-manager.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "public"}}
	s.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{
		Processes: 4, Threads: 2, HTTPKeepAlive: new(true), HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20)),
	}}
	s.Database.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSVerifyFull,
		CABundleSecretRef: &serviceapi.SecretKeyRef{Name: "db-ca"}, ClientCertSecretRef: &serviceapi.SecretKeyRef{Name: "db-client"}}
	s.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(2)), MaxReplicas: 6, TargetCPUUtilization: new(int32(70))}
	s.PolicyOverrides = &serviceapi.PolicyOverrides{Rules: map[string]string{"secrets:get": "role:admin", "orders:post": "role:admin or role:creator"}}
	s.Middleware = []serviceapi.MiddlewareSpec{
		{Name: "audit_v2", FilterFactory: "keystonemiddleware.audit:filter_factory", Position: serviceapi.MiddlewareAfter,
			Config: map[string]string{"log_format": "%(asctime)s 100%"}},
		{Name: "sizelimit", FilterFactory: "oslo_middleware:RequestBodySizeLimiter.factory", Position: serviceapi.MiddlewareBefore},
		{Name: "debug_headers", FilterFactory: "example.debug:Filter.factory", Position: serviceapi.MiddlewareBefore},
	}
	s.Plugins = []serviceapi.PluginSpec{
		{Name: "profiler", ConfigSection: "profiler", Config: map[string]string{"enabled": "true", "trace_sqlalchemy": "false"}},
		{Name: "queue tuning", ConfigSection: "queue", Config: map[string]string{"enable": "true", "asynchronous_workers": "2"}},
	}
	s.ExtraConfig = map[string]map[string]string{
		"DEFAULT":  {"max_allowed_secret_in_bytes": "20000", "host_href": "https://barbican.example.org"},
		"profiler": {"enabled": "false"},
		"database": {"max_retries": "10"},
	}
	s.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(30)), Schedule: "@weekly",
		SoftDeleteExpiredSecrets: new(true), CleanUnassociatedProjects: new(true), Suspend: true}
	return b
}

type renderCase struct {
	name    string
	b       *barbicanv1.Barbican
	stores  []render.Store
	store   render.StoreMount
	digests render.Digests
}

func renderCases() []renderCase {
	return []renderCase{
		{name: "minimal", b: minimal(), stores: []render.Store{managedStore()},
			store: render.StoreMount{CredentialsSecret: "openbao-approle", CASecret: "openbao-tls-ca"}},
		{name: "brownfield", b: brownfield(), stores: brownfieldStores(),
			store:   render.StoreMount{CredentialsSecret: "vault-prod-credentials"},
			digests: render.Digests{StoreCredentials: "5e1d"}},
		{name: "full", b: full(), stores: []render.Store{managedStore()},
			store:   render.StoreMount{CredentialsSecret: "openbao-approle", CASecret: "openbao-tls-ca"},
			digests: render.Digests{Authtoken: "a1b2", DBConnection: "c3d4", StoreCredentials: "e5f6"}},
	}
}

// policyRules is what the Config step passes: the merged rule map.
func policyRules(b *barbicanv1.Barbican) map[string]string {
	if b.Spec.PolicyOverrides == nil {
		return nil
	}
	return osconfig.MergePolicy(nil, b.Spec.PolicyOverrides.Rules)
}

func TestGolden(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			data, err := render.ConfigData(tc.b, tc.stores, policyRules(tc.b), hostHref(tc.b))
			if err != nil {
				t.Fatalf("ConfigData: %v", err)
			}
			wantKeys := []string{render.KeyConf, render.KeyPaste}
			if tc.b.Spec.PolicyOverrides != nil {
				wantKeys = append(wantKeys, render.KeyPolicy)
			}
			if keys := slices.Sorted(maps.Keys(data)); !slices.Equal(keys, slices.Sorted(slices.Values(wantKeys))) {
				t.Errorf("config Secret keys = %v, want %v", keys, wantKeys)
			}
			for _, key := range []string{render.KeyConf, render.KeyPaste, render.KeyPolicy} {
				checkGolden(t, tc.name+"."+key, data[key], slices.Contains(wantKeys, key))
			}
			checkGolden(t, tc.name+".deployment.yaml", marshal(t, render.Deployment(tc.b, testConfigSecret, tc.store, tc.digests)), true)
			checkGolden(t, tc.name+".db-sync-job.yaml", marshal(t, render.DBSyncJob(tc.b, testConfigSecret, testDBTarget)), true)
		})
	}
}

// conf renders and parses barbican.conf.
func conf(t *testing.T, b *barbicanv1.Barbican, stores []render.Store) ini.File {
	t.Helper()
	data, err := render.ConfigData(b, stores, policyRules(b), hostHref(b))
	if err != nil {
		t.Fatalf("ConfigData: %v", err)
	}
	f, err := ini.Parse([]byte(data[render.KeyConf]))
	if err != nil {
		t.Fatalf("barbican.conf does not parse: %v", err)
	}
	return f
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
func argv(args []string) string {
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

// hostHref is the endpoint the controller passes for the default cluster
// domain: the gateway's https URL, else the Service's cluster-local one.
func hostHref(b *barbicanv1.Barbican) string {
	if g := b.Spec.Gateway; g != nil {
		return "https://" + g.Hostname + "/"
	}
	return fmt.Sprintf("http://%s.%s.svc.cluster.local:%d/", b.Name, b.Namespace, barbicanv1.APIPort)
}
