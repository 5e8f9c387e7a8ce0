package render_test

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func TestDeploymentVolumes(t *testing.T) {
	cases := []struct {
		name       string
		g          *glancev1.Glance
		staging    string // "" = unbounded
		wantMounts map[string]string
		sidecar    bool
	}{
		{"minimal", minimal(), "10Gi", map[string]string{
			"config": "/etc/glance/glance-api.conf.d/ ro", "backends": "/etc/glance/backends.conf.d/ ro",
			"staging": "/var/lib/glance/staging", "tasks-work": "/var/lib/glance/tasks-work",
		}, false},
		{"full", full(), "50Gi", map[string]string{
			"config": "/etc/glance/glance-api.conf.d/ ro", "backends": "/etc/glance/backends.conf.d/ ro",
			"staging": "/var/lib/glance/staging", "tasks-work": "/var/lib/glance/tasks-work",
			"db-tls": "/etc/glance/db-tls/ ro", "image-cache": "/var/lib/glance/image-cache",
		}, true},
		{"unbounded staging", jsonPolicy(), "", map[string]string{
			"config": "/etc/glance/glance-api.conf.d/ ro", "backends": "/etc/glance/backends.conf.d/ ro",
			"staging": "/var/lib/glance/staging", "tasks-work": "/var/lib/glance/tasks-work",
		}, false},
		{"empty staging block", func() *glancev1.Glance { g := minimal(); g.Spec.Staging = &glancev1.StagingSpec{}; return g }(), "10Gi", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := render.Deployment(tc.g, testConfigMap, testBackends, render.Digests{})
			spec := d.Spec.Template.Spec
			api := spec.Containers[0]
			if tc.wantMounts != nil {
				if got := testenv.Mounts(api); !mapsEqual(got, tc.wantMounts) {
					t.Errorf("mounts = %v, want %v", got, tc.wantMounts)
				}
				if len(spec.Volumes) != len(tc.wantMounts) {
					t.Errorf("%d volumes for %d mounts", len(spec.Volumes), len(tc.wantMounts))
				}
			}
			if v := testenv.Volume(spec.Volumes, "backends"); v == nil || v.Secret == nil || v.Secret.SecretName != testBackends {
				t.Errorf("backends volume = %+v", v)
			}
			if v := testenv.Volume(spec.Volumes, "config"); v == nil || v.ConfigMap == nil || v.ConfigMap.Name != testConfigMap {
				t.Errorf("config volume = %+v", v)
			}
			for _, name := range []string{"staging", "tasks-work"} {
				v := testenv.Volume(spec.Volumes, name)
				switch {
				case v == nil || v.EmptyDir == nil:
					t.Errorf("%s is not an emptyDir: %+v", name, v)
				case tc.staging == "" && v.EmptyDir.SizeLimit != nil:
					t.Errorf("%s sizeLimit %v, want none", name, v.EmptyDir.SizeLimit)
				case tc.staging != "" && (v.EmptyDir.SizeLimit == nil || v.EmptyDir.SizeLimit.Cmp(resource.MustParse(tc.staging)) != 0):
					t.Errorf("%s sizeLimit %v, want %s", name, v.EmptyDir.SizeLimit, tc.staging)
				}
			}
			if got := len(spec.Containers) == 2; got != tc.sidecar {
				t.Errorf("sidecar present %v, want %v", got, tc.sidecar)
			}
			if api.Name != "glance-api" || api.Ports[0].ContainerPort != 9292 || api.ReadinessProbe.HTTPGet.Path != "/healthcheck" ||
				api.LivenessProbe.HTTPGet.Path != "/healthcheck" || api.StartupProbe != nil {
				t.Errorf("API container = %s port %v probes %v / %v", api.Name, api.Ports, api.ReadinessProbe, api.LivenessProbe)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

func TestCacheSidecar(t *testing.T) {
	g := full()
	d := render.Deployment(g, testConfigMap, testBackends, render.Digests{})
	if v := testenv.Volume(d.Spec.Template.Spec.Volumes, "image-cache"); v == nil || v.EmptyDir == nil ||
		v.EmptyDir.SizeLimit.Cmp(resource.MustParse("20Gi")) != 0 {
		t.Errorf("image-cache volume = %+v", v)
	}
	s := d.Spec.Template.Spec.Containers[1]
	if s.Name != "cache-maintenance" || s.Image != g.Spec.Image.Reference() {
		t.Errorf("sidecar %s image %s", s.Name, s.Image)
	}
	if len(s.Env) != 0 || len(s.EnvFrom) != 0 || s.LivenessProbe != nil || s.ReadinessProbe != nil || s.StartupProbe != nil || len(s.Ports) != 0 {
		t.Errorf("sidecar has env, probes or ports: %+v", s)
	}
	wantRes := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("25m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
	}
	if marshal(t, s.Resources) != marshal(t, wantRes) {
		t.Errorf("sidecar resources = %s", marshal(t, s.Resources))
	}
	if got := testenv.Mounts(s); !mapsEqual(got, map[string]string{"config": "/etc/glance/glance-api.conf.d/ ro", "image-cache": "/var/lib/glance/image-cache"}) {
		t.Errorf("sidecar mounts = %v", got)
	}
	if marshal(t, s.SecurityContext) != marshal(t, workload.RestrictedContainerSecurityContext(render.RunAsID)) {
		t.Errorf("sidecar securityContext = %s", marshal(t, s.SecurityContext))
	}
	// 20Gi -> image_cache_max_size 17179869184 -> 16777216 KiB; 90.5 s -> 91.
	want := []string{"/bin/sh", "-eu", "-c", render.CacheMaintenanceScript(17179869184, 91)}
	if !slices.Equal(s.Command, want) {
		t.Errorf("sidecar command = %q", s.Command)
	}
	if !strings.Contains(s.Command[3], "high=16777216\n") || !strings.Contains(s.Command[3], "interval=91\n") {
		t.Errorf("script thresholds:\n%s", s.Command[3])
	}
}

func TestCacheMaintenanceScriptGolden(t *testing.T) {
	checkGolden(t, "cache-maintenance.sh", render.CacheMaintenanceScript(8589934592, 300), true)
}

func TestDeploymentAnnotationsOmittedWhenEmpty(t *testing.T) {
	cases := []struct {
		d    render.Digests
		want map[string]string
	}{
		{render.Digests{}, nil},
		{render.Digests{Authtoken: "x"}, map[string]string{"glance.c5c3.io/authtoken-hash": "x"}},
		{render.Digests{DBConnection: "y"}, map[string]string{"glance.c5c3.io/db-connection-hash": "y"}},
		{render.Digests{Authtoken: "x", DBConnection: "y"},
			map[string]string{"glance.c5c3.io/authtoken-hash": "x", "glance.c5c3.io/db-connection-hash": "y"}},
	}
	for _, tc := range cases {
		got := render.Deployment(minimal(), testConfigMap, testBackends, tc.d).Spec.Template.Annotations
		if (got == nil) != (tc.want == nil) || !mapsEqual(got, tc.want) {
			t.Errorf("%+v: annotations = %v, want %v", tc.d, got, tc.want)
		}
	}
}

func TestDeploymentEnvAndIdentity(t *testing.T) {
	g := minimal()
	d := render.Deployment(g, testConfigMap, testBackends, render.Digests{})
	c := d.Spec.Template.Spec.Containers[0]
	want := []corev1.EnvVar{
		workload.SecretEnv("OS_DATABASE__CONNECTION", "glance-db-connection", "connection"),
		workload.SecretEnv("OS_KEYSTONE_AUTHTOKEN__PASSWORD", "glance-service-user", "password"),
	}
	if marshal(t, c.Env) != marshal(t, want) {
		t.Errorf("env =\n%s\nwant\n%s", marshal(t, c.Env), marshal(t, want))
	}
	if d.Name != "glance" || d.Namespace != "openstack" || d.Labels["app.kubernetes.io/managed-by"] != "glance-operator" ||
		d.Spec.Template.Labels["app.kubernetes.io/component"] != "api" {
		t.Errorf("deployment %s/%s labels %v / %v", d.Namespace, d.Name, d.Labels, d.Spec.Template.Labels)
	}
	if *d.Spec.Replicas != 3 || *d.Spec.Template.Spec.SecurityContext.FSGroup != render.RunAsID {
		t.Errorf("replicas %d fsGroup %d", *d.Spec.Replicas, *d.Spec.Template.Spec.SecurityContext.FSGroup)
	}
	if full := render.Deployment(full(), testConfigMap, testBackends, render.Digests{}); full.Spec.Replicas != nil {
		t.Error("replicas set under autoscaling")
	}
}

func TestEffectiveStagingAndImageCache(t *testing.T) {
	g := minimal()
	if got := render.EffectiveStagingLimit(g); got == nil || got.Cmp(resource.MustParse("10Gi")) != 0 {
		t.Errorf("default staging %v", got)
	}
	g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: new(resource.MustParse("2Gi")), Unbounded: true}
	if got := render.EffectiveStagingLimit(g); got == nil || got.Cmp(resource.MustParse("2Gi")) != 0 {
		t.Errorf("sizeLimit with unbounded: %v, want the bound", got)
	}
	got := render.EffectiveStagingLimit(g)
	got.Set(1)
	if g.Spec.Staging.SizeLimit.Cmp(resource.MustParse("2Gi")) != 0 {
		t.Error("EffectiveStagingLimit aliases the spec")
	}
	size, interval := render.EffectiveImageCache(minimal())
	if size.Cmp(resource.MustParse("10Gi")) != 0 || interval.String() != "5m0s" {
		t.Errorf("image cache defaults %s %s", size.String(), interval)
	}
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{MaintenanceInterval: &metav1.Duration{Duration: 0}}
	if _, interval := render.EffectiveImageCache(g); interval.String() != "5m0s" {
		t.Errorf("zero interval resolved to %s", interval)
	}
}

// No password may reach the pod spec as a literal or the ConfigMap at all.
func TestNoSecretValuesRendered(t *testing.T) {
	secrets := []string{"db-pass-3f9a", "svc-pass-77c1", "AKIAMINIO", "minio/secret+key", "AKIARGW", "rgw-secret"}
	for _, tc := range renderCases() {
		d := render.Deployment(tc.g, testConfigMap, testBackends, render.Digests{Authtoken: "h1", DBConnection: "h2"})
		for _, c := range d.Spec.Template.Spec.Containers {
			for _, e := range c.Env {
				if e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
					t.Errorf("%s: env %s is not a Secret reference: %+v", tc.name, e.Name, e)
				}
			}
		}
		objects := marshal(t, d) + marshal(t, render.DBSyncJob(tc.g, testConfigMap, testDBTarget)) + marshal(t, render.DBPurgeCronJob(tc.g, testConfigMap))
		data, err := render.ConfigData(tc.g, testEnabled, "minio", tc.policy)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range data {
			objects += v
		}
		for _, s := range secrets {
			if strings.Contains(objects, s) {
				t.Errorf("%s: rendered output holds a Secret value %q", tc.name, s)
			}
		}
		parsed, err := ini.Parse([]byte(data[render.KeyGlanceAPIConf]))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := parsed["keystone_authtoken"]["password"]; ok || parsed["database"]["connection"] != osconfig.DSNPlaceholder {
			t.Errorf("%s: glance-api.conf holds a password or a DSN other than the placeholder", tc.name)
		}
	}
	// The backends conf is the one place credentials belong (a Secret).
	conf, _, err := render.BackendsConf(twoBackends())
	if err != nil || !strings.Contains(conf, "s3_store_secret_key = rgw-secret\n") {
		t.Errorf("backends.conf lacks the credentials: %v\n%s", err, conf)
	}
}

func TestChildNames(t *testing.T) {
	g := minimal()
	for got, want := range map[string]string{
		render.ConfigBase(g):                        "glance-config",
		render.BackendsBase(g):                      "glance-backends",
		render.DBSyncJobName(g):                     "glance-db-sync",
		render.PhaseJobName(g, render.PhaseMigrate): "glance-db-migrate",
		render.CronJobName(g):                       "glance-db-purge",
	} {
		if got != want {
			t.Errorf("name %q, want %q", got, want)
		}
	}
	id := render.Identity(g)
	if id != (workload.Identity{Service: "glance", Instance: "glance", Namespace: "openstack", ManagedBy: "glance-operator"}) {
		t.Errorf("Identity = %+v", id)
	}
}
