package render_test

import (
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The store-section renderer either refuses a store or returns sections
// that render to a clean file reading back exactly what was given.
func FuzzStoreSections(f *testing.F) {
	f.Add("openbao", "https://openbao.openstack.svc:8200", "role", "", "barbican", "timeout", "30", true)
	f.Add("openbao", "https://h", "role\r\n[DEFAULT]", "", "barbican", "k", "v", false)
	f.Add("openbao", "https://h", "role", "ns\n", "kv", "k", "v", true)
	f.Add("openbao", "https://h", "role", "", "kv", "timeout", "3\x000", false)
	f.Add("a]b", "https://h", "role", "", "kv", "k", "v", false)
	f.Add("openbao", "https://h", "role", "", "kv", "approle_secret_id", "leak", false)
	f.Add("openbao", "https://h", " role", "", "kv", "k=v", "\"q\"", true)
	f.Fuzz(func(t *testing.T, name, url, roleID, namespace, mount, extraKey, extraValue string, ca bool) {
		store := render.Store{Name: name, Default: true, URL: url, RoleID: roleID, Namespace: namespace,
			KVMountpoint: mount, HasCA: ca, ExtraOptions: map[string]string{extraKey: extraValue}}
		sections, err := render.StoreSections([]render.Store{store})
		if err != nil {
			if sections != nil {
				t.Fatalf("error %v with sections", err)
			}
			if len(roleID) >= 8 && !strings.Contains(name, roleID) && strings.Contains(err.Error(), roleID) {
				t.Fatalf("error %q carries the role ID", err)
			}
			return
		}
		if testenv.AnyControl(name, url, roleID, namespace, mount, extraKey) || (testenv.AnyControl(extraValue) && !deniedExtraOption(extraKey)) {
			t.Fatalf("sections rendered although an input has a control character: %q", sections)
		}
		out, err := ini.Render(sections)
		if err != nil {
			t.Fatalf("accepted sections do not render: %v", err)
		}
		if testenv.HasControl(string(out)) || strings.Contains(string(out), "\r") {
			t.Fatalf("control character rendered:\n%q", out)
		}
		parsed, err := ini.Parse(out)
		if err != nil {
			t.Fatalf("rendered sections do not parse: %v\n%s", err, out)
		}
		vp := parsed["vault_plugin"]
		if vp["approle_role_id"] != roleID || vp["vault_url"] != url {
			t.Fatalf("[vault_plugin] reads back %v", vp)
		}
		if _, ok := vp["approle_secret_id"]; ok {
			t.Fatal("approle_secret_id rendered")
		}
		if !deniedExtraOption(extraKey) && vp[extraKey] != extraValue {
			t.Fatalf("extra option %q reads back as %q, want %q", extraKey, vp[extraKey], extraValue)
		}
		if _, ok := parsed["secretstore:"+name]; !ok {
			t.Fatalf("[secretstore:%s] missing", name)
		}
	})
}

func deniedExtraOption(k string) bool {
	switch k {
	case "vault_url", "use_ssl", "ssl_ca_crt_file", "approle_role_id", "approle_secret_id", "root_token_id",
		"kv_mountpoint", "namespace", "secret_store_plugin", "crypto_plugin", "global_default":
		return true
	}
	return false
}

// ConfigData refuses what it cannot render safely; whatever it renders holds
// no control character and reads back as given.
func FuzzConfigData(f *testing.F) {
	f.Add("DEFAULT", "max_allowed_secret_in_bytes", "20000", "role", "30", "strict", "true")
	f.Add("DEFAULT", "x", "a\nb", "role", "30", "m", "v")
	f.Add("vault_plugin", "k", "v", "role\r\n[DEFAULT]", "30", "m", "v")
	f.Add("s", "k", "v", "role", "3\x00", "m", "v")
	f.Add("s", "k", "v", "role", "30", "100%\x7f", "v")
	f.Add("profiler", "enabled", "v", "role", "30", "m", "x\x1by")
	f.Add("vault_plugin", "approle_secret_id", "leak", "role", "30", "m", "v")
	f.Fuzz(func(t *testing.T, section, key, value, roleID, extraOption, mwValue, pluginValue string) {
		b := minimal()
		b.Spec.ExtraConfig = map[string]map[string]string{section: {key: value}}
		b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"k": mwValue}}}
		b.Spec.Plugins = []serviceapi.PluginSpec{{Name: "p", ConfigSection: "profiler", Config: map[string]string{"trace": pluginValue}}}
		store := managedStore()
		store.RoleID = roleID
		store.ExtraOptions = map[string]string{"timeout": extraOption}
		data, err := render.ConfigData(b, []render.Store{store}, nil, hostHref(b))
		parsed := testenv.FuzzedConfig(t, data, err, render.KeyConf, section, key, value, roleID, extraOption, mwValue, pluginValue)
		if parsed == nil {
			return
		}
		if _, ok := parsed["vault_plugin"]["approle_secret_id"]; ok {
			t.Fatal("approle_secret_id rendered")
		}
		if _, err := ini.Parse([]byte(data[render.KeyPaste])); err != nil {
			t.Fatalf("paste file does not parse: %v", err)
		}
	})
}
