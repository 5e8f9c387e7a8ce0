package render_test

import (
	"bytes"
	"flag"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// go test ./internal/render/ -update rewrites the golden files; review every
// changed golden against placement-api.md §5 before accepting it.
var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const testConfigMap = "placement-config-0a1b2c3d"

// minimal is the smallest admissible Placement, defaulted as the mutating
// webhook would persist it.
func minimal() *placementv1.Placement {
	p := fixture.Bare("openstack", "placement")
	p.Spec.Cache = serviceapi.CacheSpec{Servers: []string{"memcached-0.memcached:11211", "memcached-1.memcached:11211"}}
	webhook.Apply(p)
	return p
}

type renderCase struct {
	name     string
	p        *placementv1.Placement
	policy   map[string]string
	digests  render.Digests
	wantKeys []string // ConfigMap data keys
}

func renderCases() []renderCase {
	jsonLogging := minimal()
	jsonLogging.Spec.Logging = &serviceapi.LoggingSpec{
		Format: serviceapi.LogFormatJSON,
		Level:  "WARNING",
		Debug:  new(true),
		PerLoggerLevels: map[string]serviceapi.LogLevel{
			"oslo_policy":                   "ERROR",
			"keystonemiddleware.auth_token": "DEBUG",
			"amqp":                          "WARNING",
		},
	}
	jsonLogging.Spec.Region = "RegionTwo"
	jsonLogging.Spec.KeystonePublicEndpoint = "https://keystone.example.org/v3"
	jsonLogging.Spec.Cache = serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}, Backend: serviceapi.DefaultCacheBackend}
	jsonLogging.Spec.ServiceUser.SecretRef.Key = "service-password"

	policy := minimal()
	policy.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{Rules: map[string]string{
		"placement:resource_providers:list": "role:reader",
		"placement:allocations:delete":      "role:admin",
		"admin_api":                         "role:admin or role:service",
	}}
	policy.Spec.ExtraConfig = map[string]map[string]string{
		"DEFAULT":     {"debug": "true"}, // owned key, honoured
		"placement":   {"max_allocation_candidates": "1000"},
		"oslo_policy": {"enforce_scope": "true", "policy_file": "/tmp/ignored.yaml"},
	}

	tls := minimal()
	tls.Spec.Image = serviceapi.ImageSpec{Repository: "registry.example.org/openstack/placement",
		Digest: "sha256:" + strings.Repeat("ab", 32)}
	tls.Spec.Database = serviceapi.DatabaseSpec{
		Host:      "db.example.org",
		Port:      3307,
		Database:  "placement",
		SecretRef: serviceapi.SecretKeyRef{Name: "placement-db", Key: "unused"},
		TLS: &serviceapi.DatabaseTLS{
			Mode:                serviceapi.TLSVerifyFull,
			CABundleSecretRef:   &serviceapi.SecretKeyRef{Name: "db-ca"},
			ClientCertSecretRef: &serviceapi.SecretKeyRef{Name: "db-client"},
		},
	}
	tls.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{
		Processes: 4, Threads: 2, Harakiri: new(int32(20)), HTTPKeepAliveTimeout: new(int32(30)),
	}}
	webhook.Apply(tls) // fills httpKeepAlive as admission would
	tls.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(2)), MaxReplicas: 6, TargetCPUUtilization: new(int32(70))}

	return []renderCase{
		{name: "minimal", p: minimal(), wantKeys: []string{render.KeyPlacementConf}},
		{name: "json-logging", p: jsonLogging, digests: render.Digests{Authtoken: "a1b2"},
			wantKeys: []string{render.KeyLogging, render.KeyPlacementConf}},
		{name: "policy-extraconfig", p: policy, policy: osconfig.MergePolicy(nil, policy.Spec.PolicyOverrides.Rules),
			wantKeys: []string{render.KeyPlacementConf, render.KeyPolicy}},
		{name: "tls-uwsgi", p: tls, digests: render.Digests{Authtoken: "a1b2", DBConnection: "c3d4"},
			wantKeys: []string{render.KeyPlacementConf}},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			data, err := render.ConfigData(tc.p, tc.policy)
			if err != nil {
				t.Fatalf("ConfigData: %v", err)
			}
			keys := make([]string, 0, len(data))
			for k := range data {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, tc.wantKeys) {
				t.Errorf("ConfigMap keys = %v, want %v", keys, tc.wantKeys)
			}
			for _, key := range []string{render.KeyPlacementConf, render.KeyLogging, render.KeyPolicy} {
				checkGolden(t, tc.name+"."+key, data[key], slices.Contains(tc.wantKeys, key))
			}
			checkGolden(t, tc.name+".deployment.yaml", marshal(t, render.Deployment(tc.p, testConfigMap, tc.digests)), true)
			checkGolden(t, tc.name+".db-sync-job.yaml", marshal(t, render.DBSyncJob(tc.p, testConfigMap, "d0e1")), true)
		})
	}
}

func marshal(t *testing.T, obj any) string {
	t.Helper()
	b, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return string(b)
}

// checkGolden compares got with testdata/<name>.golden (testenv.Golden).
func checkGolden(t *testing.T, name, got string, want bool) {
	t.Helper()
	testenv.Golden(t, name, got, want, *update)
}

func TestConfigIgnoresOpenStackRelease(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			other := tc.p.DeepCopy()
			other.Spec.OpenStackRelease = "2026.1"
			a, err := render.ConfigData(tc.p, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			b, err := render.ConfigData(other, tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != len(b) {
				t.Fatalf("key sets differ: %d vs %d", len(a), len(b))
			}
			for k := range a {
				if !bytes.Equal([]byte(a[k]), []byte(b[k])) {
					t.Errorf("%s differs between 2025.2 and 2026.1:\n%s\n---\n%s", k, a[k], b[k])
				}
			}
		})
	}
}

func TestConfigDataDeterministic(t *testing.T) {
	for _, tc := range renderCases() {
		first, err := render.ConfigData(tc.p, tc.policy)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			again, _ := render.ConfigData(tc.p, tc.policy)
			for k := range first {
				if again[k] != first[k] {
					t.Fatalf("%s: %s not deterministic", tc.name, k)
				}
			}
		}
	}
}

func TestConfigDataDoesNotMutateSpec(t *testing.T) {
	tc := renderCases()[2]
	before := tc.p.DeepCopy()
	if _, err := render.ConfigData(tc.p, tc.policy); err != nil {
		t.Fatal(err)
	}
	if tc.p.Spec.ExtraConfig["oslo_policy"]["policy_file"] != before.Spec.ExtraConfig["oslo_policy"]["policy_file"] {
		t.Errorf("ConfigData changed spec.extraConfig")
	}
}

func TestConfigDataRefusesControlCharacters(t *testing.T) {
	p := minimal()
	p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"x": "a\nb"}}
	if _, err := render.ConfigData(p, nil); err == nil {
		t.Fatal("ConfigData rendered a value with a newline")
	}
}

func TestDBSyncScript(t *testing.T) {
	const want = "placement-manage --config-file /etc/placement/placement.conf db sync && \\\n" +
		"placement-manage --config-file /etc/placement/placement.conf db online_data_migrations && \\\n" +
		"{ placement-status --config-file /etc/placement/placement.conf upgrade check || [ $? -eq 1 ]; }"
	if render.DBSyncScript != want {
		t.Fatalf("DBSyncScript =\n%s\nwant\n%s", render.DBSyncScript, want)
	}
	job := render.DBSyncJob(minimal(), testConfigMap, "d0e1")
	c := job.Spec.Template.Spec.Containers
	if len(c) != 1 || c[0].Name != "db-sync" {
		t.Fatalf("containers = %+v", c)
	}
	if want := []string{"/bin/sh", "-eu", "-c", want}; !slices.Equal(c[0].Command, want) {
		t.Errorf("command = %q, want %q", c[0].Command, want)
	}
	if job.Name != "placement-db-sync" {
		t.Errorf("job name = %s", job.Name)
	}
	if len(c[0].Env) != 1 || c[0].Env[0].Name != render.EnvDSN {
		t.Errorf("db-sync env = %+v, want only %s", c[0].Env, render.EnvDSN)
	}
	// Every placement.conf change must re-run the Job: the ConfigMap name is in the template.
	if v := job.Spec.Template.Spec.Volumes; len(v) == 0 || v[0].ConfigMap == nil || v[0].ConfigMap.Name != testConfigMap {
		t.Errorf("volumes = %+v, want config ConfigMap %s", v, testConfigMap)
	}
	if len(job.Spec.Template.Labels) != 0 {
		t.Errorf("db-sync pod labels = %v, want none (NetworkPolicy/Service must not select them)", job.Spec.Template.Labels)
	}
}

func TestDBSyncJobRerunKeyFollowsConfig(t *testing.T) {
	p := minimal()
	a := render.DBSyncJob(p, "placement-config-aaaaaaaa", "d0e1")
	b := render.DBSyncJob(p, "placement-config-bbbbbbbb", "d0e1")
	const key = "operators.c5c3.io/pod-spec-hash"
	if a.Annotations[key] == "" || a.Annotations[key] == b.Annotations[key] {
		t.Errorf("pod-spec-hash %q / %q: must be set and change with the ConfigMap", a.Annotations[key], b.Annotations[key])
	}
}

func TestDBSyncJobRerunKeyFollowsDatabaseTarget(t *testing.T) {
	p := minimal()
	a := render.DBSyncJob(p, testConfigMap, "target-a")
	b := render.DBSyncJob(p, testConfigMap, "target-b")
	const key = "operators.c5c3.io/pod-spec-hash"
	if a.Annotations[key] == b.Annotations[key] {
		t.Errorf("pod-spec-hash %q unchanged when the database target changed", a.Annotations[key])
	}
	if got := a.Spec.Template.Annotations[render.DBTargetHash]; got != "target-a" {
		t.Errorf("pod template %s = %q, want target-a", render.DBTargetHash, got)
	}
}

func uwsgi(u *serviceapi.UWSGISpec) *placementv1.Placement {
	p := minimal()
	p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: u}
	return p
}

func TestCommand(t *testing.T) {
	base := []string{"uwsgi", "--http", ":8778"}
	tail := func(processes, threads string) []string {
		return []string{"--add-header", "Connection: close", "--log-master",
			"--log-format", "%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))",
			"--wsgi-file", "/var/lib/openstack/bin/placement-api",
			"--master", "--lazy-apps", "--need-app",
			"--processes", processes, "--threads", threads}
	}
	cat := slices.Concat[[]string]
	shutdown := []string{"--die-on-term", "--skip-atexit"}
	cases := []struct {
		name string
		p    *placementv1.Placement
		want []string
	}{
		{"no apiServer", minimal(), cat(base, []string{"--http-keepalive"}, tail("2", "1"), shutdown)},
		{"empty uwsgi block", uwsgi(&serviceapi.UWSGISpec{}), cat(base, []string{"--http-keepalive"}, tail("2", "1"), shutdown)},
		{"full block", uwsgi(&serviceapi.UWSGISpec{Processes: 4, Threads: 2, HTTPKeepAlive: new(true),
			HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20))}),
			cat(base, []string{"--http-keepalive=30"}, tail("4", "2"), []string{"--harakiri", "20"}, shutdown)},
		{"keepalive false drops both flags", uwsgi(&serviceapi.UWSGISpec{HTTPKeepAlive: new(false), HTTPKeepAliveTimeout: new(int32(30))}),
			cat(base, tail("2", "1"), shutdown)},
		{"non-positive values dropped", uwsgi(&serviceapi.UWSGISpec{Processes: -1, Threads: 0,
			HTTPKeepAliveTimeout: new(int32(0)), Harakiri: new(int32(-5))}),
			cat(base, []string{"--http-keepalive"}, tail("2", "1"), shutdown)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := render.Command(tc.p)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Command =\n%q\nwant\n%q", got, tc.want)
			}
			for _, tok := range got {
				if strings.Contains(tok, "pyargv") {
					t.Errorf("command carries %q", tok)
				}
			}
			if end := got[len(got)-2:]; !slices.Equal(end, shutdown) {
				t.Errorf("command ends with %q, want %q", end, shutdown)
			}
			d := render.Deployment(tc.p, testConfigMap, render.Digests{})
			if !slices.Equal(d.Spec.Template.Spec.Containers[0].Command, got) {
				t.Errorf("Deployment command differs from Command()")
			}
		})
	}
}

func TestDeploymentAnnotationsOmittedWhenEmpty(t *testing.T) {
	cases := []struct {
		d    render.Digests
		want map[string]string
	}{
		{render.Digests{}, nil},
		{render.Digests{Authtoken: "x"}, map[string]string{"placement.c5c3.io/authtoken-hash": "x"}},
		{render.Digests{DBConnection: "y"}, map[string]string{"placement.c5c3.io/db-connection-hash": "y"}},
		{render.Digests{Authtoken: "x", DBConnection: "y"},
			map[string]string{"placement.c5c3.io/authtoken-hash": "x", "placement.c5c3.io/db-connection-hash": "y"}},
	}
	for _, tc := range cases {
		got := render.Deployment(minimal(), testConfigMap, tc.d).Spec.Template.Annotations
		if len(got) != len(tc.want) {
			t.Errorf("%+v: annotations = %v, want %v", tc.d, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%+v: annotations = %v, want %v", tc.d, got, tc.want)
			}
		}
	}
}

func TestDeploymentEnvAndIdentity(t *testing.T) {
	p := minimal()
	p.Spec.ServiceUser.SecretRef.Key = "pw"
	d := render.Deployment(p, testConfigMap, render.Digests{})
	c := d.Spec.Template.Spec.Containers[0]
	want := []corev1.EnvVar{
		{Name: "OS_PLACEMENT_CONFIG_DIR", Value: "/etc/placement"},
		{Name: "OS_PLACEMENT_DATABASE__CONNECTION", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "placement-db-connection"}, Key: "connection"}}},
		{Name: "OS_KEYSTONE_AUTHTOKEN__PASSWORD", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "placement-service-user"}, Key: "pw"}}},
	}
	if marshal(t, c.Env) != marshal(t, want) {
		t.Errorf("env =\n%s\nwant\n%s", marshal(t, c.Env), marshal(t, want))
	}
	if c.Name != "placement-api" || d.Name != "placement" || d.Namespace != "openstack" {
		t.Errorf("container %s, deployment %s/%s", c.Name, d.Namespace, d.Name)
	}
	sel := d.Spec.Selector.MatchLabels
	if len(sel) != 2 || sel["app.kubernetes.io/name"] != "placement" || sel["app.kubernetes.io/instance"] != "placement" {
		t.Errorf("selector = %v", sel)
	}
}

func TestDeploymentReplicas(t *testing.T) {
	cases := []struct {
		name string
		mut  func(*placementv1.Placement)
		want *int32
	}{
		{"defaulted", func(*placementv1.Placement) {}, new(int32(3))},
		{"explicit", func(p *placementv1.Placement) { p.Spec.Deployment.Replicas = 5 }, new(int32(5))},
		{"zero renders default", func(p *placementv1.Placement) { p.Spec.Deployment.Replicas = 0 }, new(int32(3))},
		{"nil deployment renders default", func(p *placementv1.Placement) { p.Spec.Deployment = nil }, new(int32(3))},
		{"autoscaling leaves replicas unset", func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		}, nil},
	}
	for _, tc := range cases {
		p := minimal()
		tc.mut(p)
		got := render.Deployment(p, testConfigMap, render.Digests{}).Spec.Replicas
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("%s: replicas = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func BenchmarkConfigData(b *testing.B) {
	tc := renderCases()[2]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render.ConfigData(tc.p, tc.policy); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDeployment(b *testing.B) {
	tc := renderCases()[3]
	b.ReportAllocs()
	var d *appsv1.Deployment
	for b.Loop() {
		d = render.Deployment(tc.p, testConfigMap, tc.digests)
	}
	if d == nil {
		b.Fatal("no Deployment")
	}
}

func TestMergePolicyInlineWins(t *testing.T) {
	fromCM := map[string]string{"admin_api": "role:admin", "placement:usages": "role:reader"}
	inline := map[string]string{"admin_api": "role:service", "placement:traits:list": "role:member"}
	got := osconfig.MergePolicy(fromCM, inline)
	want := map[string]string{"admin_api": "role:service", "placement:usages": "role:reader", "placement:traits:list": "role:member"}
	if marshal(t, got) != marshal(t, want) {
		t.Errorf("MergePolicy = %v, want %v", got, want)
	}
	if fromCM["admin_api"] != "role:admin" {
		t.Error("MergePolicy mutated its input")
	}
	p := minimal()
	data, err := render.ConfigData(p, osconfig.MergePolicy(nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := data[render.KeyPolicy]; ok || strings.Contains(data[render.KeyPlacementConf], "oslo_policy") {
		t.Errorf("empty rule set rendered policy: %v", data)
	}
}

// An undefaulted CR (webhooks off) still renders logging.conf at INFO.
func TestLoggingConfLevelDefaultsToInfo(t *testing.T) {
	p := minimal()
	p.Spec.Logging = &serviceapi.LoggingSpec{Format: serviceapi.LogFormatJSON}
	data, err := render.ConfigData(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data[render.KeyLogging], "[logger_root]\nhandlers = stderr\nlevel = INFO\n") {
		t.Errorf("logging.conf:\n%s", data[render.KeyLogging])
	}
	p.Spec.Logging = nil
	data, err = render.ConfigData(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := data[render.KeyLogging]; ok || !strings.Contains(data[render.KeyPlacementConf], "debug = false\n") {
		t.Errorf("nil logging rendered %v", data)
	}
}

func TestChildNames(t *testing.T) {
	p := minimal()
	for got, want := range map[string]string{
		render.ConfigBase(p):                    "placement-config",
		workload.DBConnectionSecretName(p.Name): "placement-db-connection",
		render.DBSyncJobName(p):                 "placement-db-sync",
	} {
		if got != want {
			t.Errorf("name %q, want %q", got, want)
		}
	}
}

// A rejected key that bypassed admission is never rendered.
func TestConfigDataRefusesRejectedKeys(t *testing.T) {
	p := minimal()
	p.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"password": "secret"}, "api": {"auth_strategy": "noauth2"}}
	data, err := render.ConfigData(p, nil)
	if err == nil || data != nil {
		t.Fatalf("ConfigData rendered a rejected key: %v", data)
	}
	if !strings.Contains(err.Error(), "[api] auth_strategy") || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q should name the first key in order and never the value", err)
	}
}
