package osconfig

import (
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

func parse(t *testing.T, s string) ini.File {
	t.Helper()
	f, err := ini.Parse([]byte(s))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, s)
	}
	return f
}

// Plugins lose to the operator's defaults, which lose to extraConfig; keys
// only one layer sets survive.
func TestRenderMergeOrder(t *testing.T) {
	data, err := Render(Input{
		MainKey: "svc.conf",
		Plugins: ini.File{
			"plugin":   {"a": "plugin", "only_plugin": "p"},
			"database": {"connection": "plugin-dsn", "pool": "5"},
		},
		Defaults: ini.File{"plugin": {"a": "default", "b": "default"}, "database": Database()},
		Extra:    map[string]map[string]string{"plugin": {"b": "extra"}, "new": {"k": "v"}},
		Owned:    OwnedKeys("database"),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, data["svc.conf"])
	for _, c := range []struct{ section, key, want string }{
		{"plugin", "a", "default"},
		{"plugin", "b", "extra"},
		{"plugin", "only_plugin", "p"},
		{"database", "connection", DSNPlaceholder},
		{"database", "pool", "5"},
		{"new", "k", "v"},
	} {
		if got := f[c.section][c.key]; got != c.want {
			t.Errorf("[%s] %s = %q, want %q", c.section, c.key, got, c.want)
		}
	}
	if len(data) != 1 {
		t.Errorf("keys %v, want only the main file", data)
	}
}

func TestRenderPolicyAndLogging(t *testing.T) {
	data, err := Render(Input{
		MainKey:     "svc.conf",
		Defaults:    ini.File{"DEFAULT": Default(&serviceapi.LoggingSpec{Format: serviceapi.LogFormatJSON}, "/etc/svc/logging.conf")},
		Extra:       map[string]map[string]string{"oslo_policy": {"policy_file": "/elsewhere.yaml", "enforce_scope": "true"}},
		Owned:       OwnedKeys("database"),
		PolicyRules: map[string]string{"b": "role:admin", "a": "role:reader"},
		PolicyFile:  "/etc/svc/policy.yaml",
		Logging:     &serviceapi.LoggingSpec{Format: serviceapi.LogFormatJSON},
	})
	if err != nil {
		t.Fatal(err)
	}
	f := parse(t, data["svc.conf"])
	// The rendered policy file wins over an extraConfig path while rules exist.
	if f["oslo_policy"]["policy_file"] != "/etc/svc/policy.yaml" || f["oslo_policy"]["enforce_scope"] != "true" {
		t.Errorf("[oslo_policy] = %v", f["oslo_policy"])
	}
	if data[PolicyKey] != "a: role:reader\nb: role:admin\n" {
		t.Errorf("policy.yaml = %q", data[PolicyKey])
	}
	if f["DEFAULT"]["log_config_append"] != "/etc/svc/logging.conf" || !strings.Contains(data[LoggingKey], "level = INFO\n") {
		t.Errorf("logging: DEFAULT %v, logging.conf %q", f["DEFAULT"], data[LoggingKey])
	}
}

func TestRenderRefusesRejectedAndUnsafe(t *testing.T) {
	owned := append(extraconfig.Registry{{Section: "s", Key: "guarded", Owner: "spec.x", Impact: "bad", Rejected: true}}, OwnedKeys("database")...)
	cases := map[string]map[string]map[string]string{
		"rejected key":      {"s": {"guarded": "v"}},
		"password":          {"keystone_authtoken": {"password": "hunter2"}},
		"control character": {"s": {"k": "a\nb"}},
	}
	for name, extra := range cases {
		data, err := Render(Input{MainKey: "svc.conf", Extra: extra, Owned: owned})
		if err == nil || data != nil {
			t.Errorf("%s: rendered %v", name, data)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: error echoes the value: %v", name, err)
		}
	}
}

// A plugin section may not set a rejected key either; the error names the
// field it came from.
func TestRenderRefusesRejectedPluginKeys(t *testing.T) {
	owned := OwnedKeys("database")
	plugins := Plugins([]serviceapi.PluginSpec{{Name: "p", ConfigSection: "keystone_authtoken", Config: map[string]string{"password": "hunter2"}}})
	data, err := Render(Input{MainKey: "svc.conf", Plugins: plugins, Owned: owned})
	if err == nil || data != nil || !strings.Contains(err.Error(), "spec.plugins [keystone_authtoken] password") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("rendered %v, err %v", data, err)
	}
	if got := Plugins([]serviceapi.PluginSpec{{ConfigSection: "empty"}}); got["empty"] == nil {
		t.Errorf("a plugin without config renders no section: %v", got)
	}
}
