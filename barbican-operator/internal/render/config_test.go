package render_test

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// The minimal file holds the §4.2 keys and nothing else: no logging keys
// (spec.logging is not rendered), no [oslo_policy] without overrides.
func TestConfigOwnedDefaults(t *testing.T) {
	f := conf(t, minimal(), []render.Store{managedStore()})
	want := map[string]map[string]string{
		"DEFAULT":  {"db_auto_create": "false", "host_href": "http://barbican.openstack.svc.cluster.local:9311"},
		"database": {"connection": osconfig.DSNPlaceholder, "max_retries": "-1", "connection_recycle_time": "600"},
		"keystone_authtoken": {"auth_type": "password", "auth_url": "http://keystone.openstack.svc:5000/v3",
			"www_authenticate_uri": "http://keystone.openstack.svc:5000/v3", "username": "barbican", "project_name": "service",
			"user_domain_name": "Default", "project_domain_name": "Default", "memcached_servers": "memcached:11211"},
		"queue":               {"enable": "false"},
		"secretstore":         {"enable_multiple_secret_stores": "true", "stores_lookup_suffix": "openbao"},
		"secretstore:openbao": {"secret_store_plugin": "vault_plugin", "global_default": "True"},
		"vault_plugin": {"vault_url": "https://openbao.openstack.svc:8200", "use_ssl": "true", "approle_role_id": testRoleID,
			"kv_mountpoint": "barbican", "ssl_ca_crt_file": "/etc/barbican-secret-store-ca/ca.crt"},
	}
	if !reflect.DeepEqual(map[string]map[string]string(f), want) {
		t.Errorf("barbican.conf =\n%v\nwant\n%v", f, want)
	}
}

// plugins < operator defaults < extraConfig, and the conditional keys.
func TestConfigMergeOrder(t *testing.T) {
	f := conf(t, full(), []render.Store{managedStore()})
	checks := []struct{ section, key, want string }{
		{"queue", "enable", "false"},                                // default beats plugin
		{"queue", "asynchronous_workers", "2"},                      // plugin key kept
		{"profiler", "enabled", "false"},                            // extraConfig beats plugin
		{"profiler", "trace_sqlalchemy", "false"},                   // plugin key kept
		{"DEFAULT", "host_href", "https://barbican.example.org"},    // extraConfig beats an owned default
		{"DEFAULT", "max_allowed_secret_in_bytes", "20000"},         // extraConfig adds
		{"database", "max_retries", "10"},                           // extraConfig beats a default
		{"oslo_policy", "policy_file", "/etc/barbican/policy.yaml"}, // with overrides only
		{"keystone_authtoken", "region_name", "RegionTwo"},
		{"keystone_authtoken", "www_authenticate_uri", "https://keystone.example.org/v3"},
	}
	for _, c := range checks {
		if got, ok := f[c.section][c.key]; !ok || got != c.want {
			t.Errorf("[%s] %s = %q (set %v), want %q", c.section, c.key, got, ok, c.want)
		}
	}
	b := full()
	b.Spec.ExtraConfig = nil
	if got := conf(t, b, []render.Store{managedStore()})["DEFAULT"]["host_href"]; got != "https://key-manager.example.org" {
		t.Errorf("host_href with a gateway = %q, want https://key-manager.example.org", got)
	}
}

func TestConfigPolicy(t *testing.T) {
	b := full()
	data, err := render.ConfigData(b, []render.Store{managedStore()}, policyRules(b), hostHref(b))
	if err != nil {
		t.Fatal(err)
	}
	if want := "orders:post: role:admin or role:creator\nsecrets:get: role:admin\n"; data[render.KeyPolicy] != want {
		t.Errorf("policy.yaml = %q, want %q", data[render.KeyPolicy], want)
	}
	data, err = render.ConfigData(b, []render.Store{managedStore()}, nil, hostHref(b))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := data[render.KeyPolicy]; ok || strings.Contains(data[render.KeyConf], "policy_file") {
		t.Error("policy.yaml or policy_file rendered without rules")
	}
}

// The three credential keys are refused in extraConfig and spec.plugins
// alike, without echoing the value.
func TestConfigRefusesRejectedKeys(t *testing.T) {
	const value = "do-not-echo-this"
	for _, sk := range [][2]string{
		{"keystone_authtoken", "password"}, {"vault_plugin", "approle_secret_id"}, {"vault_plugin", "root_token_id"},
	} {
		extra := minimal()
		extra.Spec.ExtraConfig = map[string]map[string]string{sk[0]: {sk[1]: value}}
		plugin := minimal()
		plugin.Spec.Plugins = []serviceapi.PluginSpec{{Name: "p", ConfigSection: sk[0], Config: map[string]string{sk[1]: value}}}
		for what, b := range map[string]*barbicanv1.Barbican{"extraConfig": extra, "plugins": plugin} {
			data, err := render.ConfigData(b, []render.Store{managedStore()}, nil, hostHref(b))
			if err == nil {
				t.Errorf("%s [%s] %s accepted:\n%s", what, sk[0], sk[1], data[render.KeyConf])
				continue
			}
			if !strings.Contains(err.Error(), sk[1]) || strings.Contains(err.Error(), value) {
				t.Errorf("%s [%s] %s: error %q should name the key, not the value", what, sk[0], sk[1], err)
			}
		}
	}
}

// An honoured owned-key override is rendered; every error leaves no data.
func TestConfigErrors(t *testing.T) {
	b := minimal()
	b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"debug": "a\nb"}}
	if data, err := render.ConfigData(b, []render.Store{managedStore()}, nil, hostHref(b)); err == nil || data != nil {
		t.Errorf("LF in extraConfig: data %v, err %v", data, err)
	}
	if data, err := render.ConfigData(minimal(), nil, nil, hostHref(minimal())); err == nil || data != nil {
		t.Errorf("no store: data %v, err %v", data, err)
	}
	b = minimal()
	b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "authtoken", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
	if data, err := render.ConfigData(b, []render.Store{managedStore()}, nil, hostHref(b)); err == nil || data != nil {
		t.Errorf("colliding middleware: data %v, err %v", data, err)
	}
}

// Rendering is deterministic: the content hash of the config Secret only
// moves when an input does.
func TestConfigDeterministic(t *testing.T) {
	b := full()
	first, err := render.ConfigData(b, brownfieldStores(), policyRules(b), hostHref(b))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := render.ConfigData(b, brownfieldStores(), policyRules(b), hostHref(b))
		if !maps.Equal(first, again) {
			t.Fatal("two renders of the same input differ")
		}
	}
}

func TestOwnedKeys(t *testing.T) {
	rejected := []string{}
	for _, o := range render.OwnedKeys {
		if o.Rejected {
			rejected = append(rejected, "["+o.Section+"] "+o.Key)
		}
		if o.Owner == "" || o.Impact == "" {
			t.Errorf("[%s] %s lacks an owner or impact", o.Section, o.Key)
		}
		if strings.HasPrefix(o.Section, "secretstore:") {
			t.Errorf("[%s] is registered; per-store sections are not", o.Section)
		}
	}
	slices.Sort(rejected)
	if want := []string{"[keystone_authtoken] password", "[vault_plugin] approle_secret_id", "[vault_plugin] root_token_id"}; !slices.Equal(rejected, want) {
		t.Errorf("rejected keys = %v, want %v", rejected, want)
	}
	// Every key the operator renders is registered (conditional ones too),
	// except the per-store sections and the two [database] defaults.
	b := full()
	b.Spec.Plugins, b.Spec.ExtraConfig = nil, nil
	stores := brownfieldStores()
	stores[1].HasCA = true
	f := conf(t, b, stores)
	for section, keys := range f {
		for key := range keys {
			_, owned := render.OwnedKeys.Lookup(section, key)
			notOwned := strings.HasPrefix(section, "secretstore:") ||
				section == "database" && key != "connection" ||
				section == "vault_plugin" && (key == "timeout" || key == "ssl_verify")
			if owned == notOwned {
				t.Errorf("[%s] %s: registered %v, want %v", section, key, owned, !notOwned)
			}
		}
	}
	for _, o := range render.OwnedKeys {
		if o.Section == "DEFAULT" && (o.Key == "debug" || o.Key == "use_stderr") {
			t.Errorf("[DEFAULT] %s registered, but logging is not rendered", o.Key)
		}
	}
	over := render.OwnedKeys.Overrides(full().Spec.ExtraConfig)
	if len(over) != 1 || over[0].Key != "host_href" {
		t.Errorf("full's overridden owned keys = %v, want [DEFAULT] host_href", over)
	}
}

// host_href is the endpoint the controller passes, without its trailing slash.
func TestHostHrefIsTheEndpointWithoutItsSlash(t *testing.T) {
	b := minimal()
	data, err := render.ConfigData(b, []render.Store{managedStore()}, nil, "https://kms.example.org/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data[render.KeyConf], "host_href = https://kms.example.org\n") {
		t.Errorf("barbican.conf:\n%s", data[render.KeyConf])
	}
}
