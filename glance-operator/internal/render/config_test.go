package render_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// conf renders glance-api.conf of g and parses it back as oslo.config would.
func conf(t *testing.T, g *glancev1.Glance) ini.File {
	t.Helper()
	data, err := render.ConfigData(g, testEnabled, "minio", nil)
	if err != nil {
		t.Fatalf("ConfigData: %v", err)
	}
	f, err := ini.Parse([]byte(data[render.KeyGlanceAPIConf]))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return f
}

const baseline = "localhost,127.0.0.1,0.0.0.0,::1,169.254.169.254,kubernetes,kubernetes.default,kubernetes.default.svc,kubernetes.default.svc.cluster.local"

func TestImportFilteringResolution(t *testing.T) {
	cases := []struct {
		name string
		in   *glancev1.ImportFilteringSpec
		want map[string]string
	}{
		{"nil block", nil, map[string]string{
			"allowed_schemes": "[https]", "disallowed_schemes": "[]", "allowed_hosts": "[]",
			"disallowed_hosts": "[" + baseline + "]", "allowed_ports": "[443]", "disallowed_ports": "[]",
		}},
		{"empty lists are honoured, except the host baseline", &glancev1.ImportFilteringSpec{
			AllowedSchemes: []string{}, DisallowedSchemes: []string{}, AllowedHosts: []string{},
			DisallowedHosts: []string{}, AllowedPorts: []int32{}, DisallowedPorts: []int32{},
		}, map[string]string{
			"allowed_schemes": "[]", "disallowed_schemes": "[]", "allowed_hosts": "[]",
			"disallowed_hosts": "[" + baseline + "]", "allowed_ports": "[]", "disallowed_ports": "[]",
		}},
		{"user hosts appended to the baseline, deduplicated", &glancev1.ImportFilteringSpec{
			DisallowedHosts: []string{"evil.example", "localhost", "evil.example"},
		}, map[string]string{"disallowed_hosts": "[" + baseline + ",evil.example]"}},
		{"allowed hosts empty the deny list", &glancev1.ImportFilteringSpec{
			AllowedHosts: []string{"images.example.org", "mirror.example.org"},
		}, map[string]string{"allowed_hosts": "[images.example.org,mirror.example.org]", "disallowed_hosts": "[]"}},
		{"siblings keep their defaults", &glancev1.ImportFilteringSpec{
			DisallowedSchemes: []string{"http"}, DisallowedPorts: []int32{22},
		}, map[string]string{
			"allowed_schemes": "[https]", "disallowed_schemes": "[http]",
			"allowed_ports": "[443]", "disallowed_ports": "[22]",
		}},
		{"widened", &glancev1.ImportFilteringSpec{
			AllowedSchemes: []string{"http", "https"}, AllowedPorts: []int32{80, 443, 8080},
		}, map[string]string{"allowed_schemes": "[http,https]", "allowed_ports": "[80,443,8080]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := minimal()
			g.Spec.ImportFiltering = tc.in
			got := conf(t, g)["import_filtering_opts"]
			if len(got) != 6 {
				t.Errorf("import_filtering_opts has %d keys, want all six: %v", len(got), got)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestEffectiveImportFilteringDoesNotAliasSpec(t *testing.T) {
	g := minimal()
	g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{DisallowedHosts: []string{"a.example"}, AllowedPorts: []int32{443}}
	f := render.EffectiveImportFiltering(g)
	f.AllowedPorts[0] = 1
	f.DisallowedHosts[0] = "x"
	if g.Spec.ImportFiltering.AllowedPorts[0] != 443 || g.Spec.ImportFiltering.DisallowedHosts[0] != "a.example" {
		t.Error("EffectiveImportFiltering aliases the spec")
	}
	if render.DisallowedHostsBaseline[0] != "localhost" {
		t.Error("EffectiveImportFiltering aliases the baseline")
	}
}

func TestImportFilteringRefusesSplittingEntries(t *testing.T) {
	for _, host := range []string{"a.example,b.example", " a.example", ""} {
		g := minimal()
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedHosts: []string{"ok.example", host}}
		if _, err := render.ConfigData(g, testEnabled, "minio", nil); err == nil {
			t.Errorf("host %q rendered", host)
		}
	}
}

func TestWorkers(t *testing.T) {
	cases := []struct {
		release string
		workers *int32
		want    string // "" = not rendered
	}{
		{"2025.2", nil, "2"},
		{"2025.2", new(int32(6)), "6"},
		{"2026.1", nil, ""},
		{"2026.1", new(int32(3)), "3"},
		{"2026.2", nil, ""},
		{"latest", nil, "2"}, // unparseable => eventlet
	}
	for _, tc := range cases {
		g := minimal()
		g.Spec.OpenStackRelease = tc.release
		if tc.workers != nil {
			g.Spec.APIServer = &glancev1.APIServerSpec{Workers: tc.workers}
		}
		got, ok := conf(t, g)["DEFAULT"]["workers"]
		if (tc.want == "") == ok || got != tc.want {
			t.Errorf("%s workers=%v: rendered %q (present %v), want %q", tc.release, tc.workers, got, ok, tc.want)
		}
	}
}

func TestImageCacheKeys(t *testing.T) {
	g := minimal()
	def := conf(t, g)["DEFAULT"]
	for _, k := range []string{"image_cache_dir", "image_cache_driver", "image_cache_max_size"} {
		if _, ok := def[k]; ok {
			t.Errorf("%s rendered without spec.imageCache", k)
		}
	}
	cases := map[string]string{"": "8589934592", "1Gi": "858993456", "1Mi": "838856"}
	for size, want := range cases {
		g := minimal()
		g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
		if size != "" {
			g.Spec.ImageCache.SizeLimit = new(resource.MustParse(size))
		}
		def := conf(t, g)["DEFAULT"]
		if def["image_cache_max_size"] != want || def["image_cache_dir"] != "/var/lib/glance/image-cache" || def["image_cache_driver"] != "sqlite" {
			t.Errorf("size %q: %v, want image_cache_max_size %s", size, def, want)
		}
	}
}

func TestImportPlugins(t *testing.T) {
	cases := []struct {
		name    string
		plugins *glancev1.ImportPluginsSpec
		want    map[string]map[string]string // section -> keys; nil section = absent
	}{
		{"none", nil, map[string]map[string]string{
			"image_import_opts": {"image_import_plugins": "[]"}, "image_conversion": nil, "inject_metadata_properties": nil,
		}},
		{"empty block", &glancev1.ImportPluginsSpec{}, map[string]map[string]string{
			"image_import_opts": {"image_import_plugins": "[]"},
		}},
		{"decompression only", &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}, map[string]map[string]string{
			"image_import_opts": {"image_import_plugins": "[image_decompression]"}, "image_conversion": nil,
		}},
		{"conversion defaults to raw", &glancev1.ImportPluginsSpec{Conversion: &glancev1.ConversionSpec{}}, map[string]map[string]string{
			"image_import_opts": {"image_import_plugins": "[image_conversion]"}, "image_conversion": {"output_format": "raw"},
		}},
		{"inject, nil roles => admin", &glancev1.ImportPluginsSpec{
			InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"z": "1", "a": "x y", "m": ""}},
		}, map[string]map[string]string{
			"image_import_opts":          {"image_import_plugins": "[inject_image_metadata]"},
			"inject_metadata_properties": {"inject": "a:x y,m:,z:1", "ignore_user_roles": "admin"},
		}},
		{"inject, [] roles => no exemption", &glancev1.ImportPluginsSpec{
			InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"k": "v"}, IgnoreUserRoles: []string{}},
		}, map[string]map[string]string{
			"inject_metadata_properties": {"inject": "k:v", "ignore_user_roles": ""},
		}},
		{"all three in the fixed order", &glancev1.ImportPluginsSpec{
			InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"k": "v"}, IgnoreUserRoles: []string{"admin", "service"}},
			Conversion:     &glancev1.ConversionSpec{OutputFormat: glancev1.FormatVMDK},
			Decompression:  &glancev1.DecompressionSpec{},
		}, map[string]map[string]string{
			"image_import_opts":          {"image_import_plugins": "[image_decompression,image_conversion,inject_image_metadata]"},
			"image_conversion":           {"output_format": "vmdk"},
			"inject_metadata_properties": {"inject": "k:v", "ignore_user_roles": "admin,service"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := minimal()
			g.Spec.ImportPlugins = tc.plugins
			f := conf(t, g)
			for section, keys := range tc.want {
				if keys == nil {
					if _, ok := f[section]; ok {
						t.Errorf("[%s] rendered: %v", section, f[section])
					}
					continue
				}
				for k, v := range keys {
					if got, ok := f[section][k]; !ok || got != v {
						t.Errorf("[%s] %s = %q (present %v), want %q", section, k, got, ok, v)
					}
				}
			}
		})
	}
}

func TestInjectMetadataRefusesSplittingEntries(t *testing.T) {
	for name, m := range map[string]*glancev1.InjectMetadataSpec{
		"colon in name":  {Properties: map[string]string{"a:b": "v"}},
		"comma in name":  {Properties: map[string]string{"a,b": "v"}},
		"comma in value": {Properties: map[string]string{"a": "v,w"}},
		"comma in role":  {Properties: map[string]string{"a": "v"}, IgnoreUserRoles: []string{"admin,member"}},
		"space edges":    {Properties: map[string]string{"a": " v"}},
	} {
		g := minimal()
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{InjectMetadata: m}
		if _, err := render.ConfigData(g, testEnabled, "minio", nil); err == nil {
			t.Errorf("%s: rendered", name)
		}
	}
}

func TestConfigSections(t *testing.T) {
	f := conf(t, minimal())
	want := map[string]map[string]string{
		"DEFAULT": {
			"enabled_backends": "ceph-rgw:s3,minio:s3", "enabled_import_methods": "[web-download,copy-image]",
			"use_stderr": "true", "debug": "false", "workers": "2",
		},
		"database":                {"connection": "mysql+pymysql://placeholder", "max_retries": "-1", "connection_recycle_time": "600"},
		"glance_store":            {"default_backend": "minio"},
		"os_glance_staging_store": {"filesystem_store_datadir": "/var/lib/glance/staging"},
		"os_glance_tasks_store":   {"filesystem_store_datadir": "/var/lib/glance/tasks-work"},
		"paste_deploy":            {"flavor": "keystone", "config_file": "/etc/glance/glance-api.conf.d/glance-api-paste.ini"},
		"keystone_authtoken": {
			"auth_type": "password", "auth_url": "http://keystone-api.openstack.svc:5000/v3",
			"www_authenticate_uri": "http://keystone-api.openstack.svc:5000/v3", "username": "glance",
			"project_name": "service", "user_domain_name": "Default", "project_domain_name": "Default",
			"memcached_servers": "memcached:11211",
		},
	}
	for section, keys := range want {
		if len(f[section]) != len(keys) {
			t.Errorf("[%s] = %v, want exactly %v", section, f[section], keys)
		}
		for k, v := range keys {
			if f[section][k] != v {
				t.Errorf("[%s] %s = %q, want %q", section, k, f[section][k], v)
			}
		}
	}
	for _, absent := range []string{"oslo_policy", "image_conversion", "inject_metadata_properties"} {
		if _, ok := f[absent]; ok {
			t.Errorf("[%s] rendered for a minimal Glance", absent)
		}
	}
}

func TestConfigDataRefusesBadDefaultBackend(t *testing.T) {
	for _, def := range []string{"", "swift"} {
		if _, err := render.ConfigData(minimal(), testEnabled, def, nil); err == nil {
			t.Errorf("default backend %q accepted", def)
		}
	}
}

func TestMergeOrderPluginsDefaultsExtraConfig(t *testing.T) {
	f := conf(t, full())
	checks := []struct{ section, key, want string }{
		{"glance_store", "default_backend", "minio"},                          // plugin < defaults
		{"glance_store", "s3_store_thread_pools", "20"},                       // plugin-only key kept
		{"profiler", "enabled", "false"},                                      // plugin < extraConfig
		{"profiler", "trace_sqlalchemy", "false"},                             // plugin-only key kept
		{"DEFAULT", "enabled_import_methods", "[glance-direct,web-download]"}, // defaults < extraConfig (reported key)
		{"taskflow_executor", "max_workers", "4"},                             // extraConfig-only section
	}
	for _, c := range checks {
		if got := f[c.section][c.key]; got != c.want {
			t.Errorf("[%s] %s = %q, want %q", c.section, c.key, got, c.want)
		}
	}
}

func TestOwnedKeys(t *testing.T) {
	rejected := map[string][]string{
		"DEFAULT":                    {"image_cache_dir", "image_cache_driver", "image_cache_max_size"},
		"import_filtering_opts":      {"allowed_schemes", "disallowed_schemes", "allowed_hosts", "disallowed_hosts", "allowed_ports", "disallowed_ports"},
		"image_import_opts":          {"image_import_plugins"},
		"image_conversion":           {"output_format"},
		"inject_metadata_properties": {"inject", "ignore_user_roles"},
		"keystone_authtoken":         {"password"},
	}
	reported := map[string][]string{
		"DEFAULT":                 {"enabled_backends", "enabled_import_methods", "use_stderr", "debug", "workers", "default_log_levels", "log_config_append"},
		"database":                {"max_retries", "connection_recycle_time", "connection"},
		"keystone_authtoken":      {"auth_type", "auth_url", "www_authenticate_uri", "username", "project_name", "user_domain_name", "project_domain_name", "region_name", "memcached_servers"},
		"glance_store":            {"default_backend"},
		"os_glance_staging_store": {"filesystem_store_datadir"},
		"os_glance_tasks_store":   {"filesystem_store_datadir"},
		"paste_deploy":            {"flavor", "config_file"},
		"oslo_policy":             {"policy_file"},
	}
	n := 0
	for want, table := range map[bool]map[string][]string{true: rejected, false: reported} {
		for section, keys := range table {
			for _, k := range keys {
				n++
				o, ok := render.OwnedKeys.Lookup(section, k)
				if !ok || o.Rejected != want {
					t.Errorf("[%s] %s: owned %v rejected %v, want rejected %v", section, k, ok, o.Rejected, want)
				}
			}
		}
	}
	if len(render.OwnedKeys) != n {
		t.Errorf("OwnedKeys has %d entries, the §8.2 table %d", len(render.OwnedKeys), n)
	}
}

func TestConfigDataRefusesRejectedKeys(t *testing.T) {
	for _, section := range []string{"import_filtering_opts", "DEFAULT"} {
		key := map[string]string{"import_filtering_opts": "allowed_hosts", "DEFAULT": "image_cache_max_size"}[section]
		g := minimal()
		g.Spec.ExtraConfig = map[string]map[string]string{section: {key: "[]"}}
		if data, err := render.ConfigData(g, testEnabled, "minio", nil); err == nil || data != nil {
			t.Errorf("extraConfig [%s] %s rendered", section, key)
		}
		g = minimal()
		g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: section, Config: map[string]string{key: "[]"}}}
		_, err := render.ConfigData(g, testEnabled, "minio", nil)
		if err == nil || !strings.Contains(err.Error(), "spec.plugins") {
			t.Errorf("plugin [%s] %s: err %v, want a spec.plugins refusal", section, key, err)
		}
	}
	g := minimal()
	g.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"password": "hunter2"}}
	_, err := render.ConfigData(g, testEnabled, "minio", nil)
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("password in extraConfig: err %v (must refuse and never echo the value)", err)
	}
}

func TestConfigDataRefusesControlCharacters(t *testing.T) {
	cases := map[string]func(*glancev1.Glance){
		"extraConfig value": func(g *glancev1.Glance) { g.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"x": "a\nb"}} },
		"extraConfig key":   func(g *glancev1.Glance) { g.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"x\r": "a"}} },
		"import host": func(g *glancev1.Glance) {
			g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{DisallowedHosts: []string{"a\x00b"}}
		},
		"middleware config": func(g *glancev1.Glance) {
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: "after", Config: map[string]string{"k": "\x1b[31m"}}}
		},
		"inject property": func(g *glancev1.Glance) {
			g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"k": "v\tw"}}}
		},
		"plugin value": func(g *glancev1.Glance) {
			g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "p", Config: map[string]string{"k": "v\n[DEFAULT]"}}}
		},
		"region": func(g *glancev1.Glance) { g.Spec.Region = "r\n" },
	}
	for name, mut := range cases {
		g := minimal()
		mut(g)
		if data, err := render.ConfigData(g, testEnabled, "minio", nil); err == nil {
			t.Errorf("%s: rendered %v", name, data)
		}
	}
}

func TestConfigDataDeterministicAndPure(t *testing.T) {
	for _, tc := range renderCases() {
		before := tc.g.DeepCopy()
		first, err := render.ConfigData(tc.g, testEnabled, "minio", tc.policy)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			again, _ := render.ConfigData(tc.g, testEnabled, "minio", tc.policy)
			for k := range first {
				if again[k] != first[k] {
					t.Fatalf("%s: %s not deterministic", tc.name, k)
				}
			}
		}
		reversed, err := render.ConfigData(tc.g, []string{"minio", "ceph-rgw"}, "minio", tc.policy)
		if err != nil || reversed[render.KeyGlanceAPIConf] != first[render.KeyGlanceAPIConf] {
			t.Errorf("%s: the order of the enabled backends changes glance-api.conf (err %v)", tc.name, err)
		}
		if marshal(t, before) != marshal(t, tc.g) {
			t.Errorf("%s: ConfigData mutated the Glance", tc.name)
		}
	}
}
