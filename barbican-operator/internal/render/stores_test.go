package render_test

import (
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

func TestStoreSections(t *testing.T) {
	cases := []struct {
		name   string
		stores []render.Store
		want   map[string]map[string]string
	}{
		{"one managed store with CA", []render.Store{managedStore()}, map[string]map[string]string{
			"secretstore":         {"enable_multiple_secret_stores": "true", "stores_lookup_suffix": "openbao"},
			"secretstore:openbao": {"secret_store_plugin": "vault_plugin", "global_default": "True"},
			"vault_plugin": {"vault_url": "https://openbao.openstack.svc:8200", "use_ssl": "true", "approle_role_id": testRoleID,
				"kv_mountpoint": "barbican", "ssl_ca_crt_file": "/etc/barbican-secret-store-ca/ca.crt"},
		}},
		{"brownfield default without CA, namespace, extraOptions filtered, second store", brownfieldStores(), map[string]map[string]string{
			"secretstore":               {"enable_multiple_secret_stores": "true", "stores_lookup_suffix": "vault-archive,vault-prod"},
			"secretstore:vault-archive": {"secret_store_plugin": "vault_plugin"},
			"secretstore:vault-prod":    {"secret_store_plugin": "vault_plugin", "global_default": "True"},
			"vault_plugin": {"vault_url": "https://vault.example.org", "use_ssl": "true", "approle_role_id": testRoleID,
				"kv_mountpoint": "kv-barbican", "namespace": "tenants/cloud", "timeout": "30", "ssl_verify": "true"},
		}},
		{"plain http and an empty mount", []render.Store{{Name: "dev", Default: true, URL: "http://bao.dev:8200", RoleID: "r"}},
			map[string]map[string]string{
				"secretstore":     {"enable_multiple_secret_stores": "true", "stores_lookup_suffix": "dev"},
				"secretstore:dev": {"secret_store_plugin": "vault_plugin", "global_default": "True"},
				"vault_plugin":    {"vault_url": "http://bao.dev:8200", "use_ssl": "false", "approle_role_id": "r", "kv_mountpoint": "barbican"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := render.StoreSections(tc.stores)
			if err != nil {
				t.Fatalf("StoreSections: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("StoreSections =\n%v\nwant\n%v", got, tc.want)
			}
			reversed := slices.Clone(tc.stores)
			slices.Reverse(reversed)
			if again, _ := render.StoreSections(reversed); !reflect.DeepEqual(got, again) {
				t.Error("the input order changes the sections")
			}
		})
	}
}

// The default store's secret ID is never a [vault_plugin] key, whatever
// extraOptions say, and the sections only name the store's non-secret data.
func TestStoreSectionsNeverRenderSecretID(t *testing.T) {
	got, err := render.StoreSections(brownfieldStores())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"approle_secret_id", "root_token_id"} {
		if _, ok := got["vault_plugin"][k]; ok {
			t.Errorf("[vault_plugin] %s rendered", k)
		}
	}
	for section, keys := range got {
		for k, v := range keys {
			if v == "leak" || v == "root" || v == "https://attacker.example.org" {
				t.Errorf("[%s] %s = %q comes from a denied extraOptions key", section, k, v)
			}
		}
	}
}

func TestStoreSectionsErrors(t *testing.T) {
	const secretish = "s3cr3t-value"
	withDefault := func(mut func(*render.Store)) []render.Store {
		s := managedStore()
		mut(&s)
		return []render.Store{s}
	}
	cases := []struct {
		name   string
		stores []render.Store
		want   string // in the error
	}{
		{"CR/LF in the role ID", withDefault(func(s *render.Store) { s.RoleID = secretish + "\r\n[DEFAULT]" }), `"openbao"`},
		{"LF in the role ID", withDefault(func(s *render.Store) { s.RoleID = secretish + "\n" }), `"openbao"`},
		{"LF in an extraOptions value", withDefault(func(s *render.Store) {
			s.ExtraOptions = map[string]string{"timeout": secretish + "\nvault_url = https://evil"}
		}), `"openbao"`},
		{"NUL in an extraOptions value", withDefault(func(s *render.Store) { s.ExtraOptions = map[string]string{"timeout": secretish + "\x00"} }), "control character"},
		{"ESC in the namespace", withDefault(func(s *render.Store) { s.Namespace = secretish + "\x1b" }), "namespace"},
		{"LF in the URL", withDefault(func(s *render.Store) { s.URL = "https://h\n" + secretish }), "vault_url"},
		{"LF in the mount", withDefault(func(s *render.Store) { s.KVMountpoint = "kv\n" + secretish }), "kv_mountpoint"},
		{"malformed extraOptions key", withDefault(func(s *render.Store) { s.ExtraOptions = map[string]string{"a=b": secretish} }), `"a=b"`},
		{"control character in an extraOptions key", withDefault(func(s *render.Store) { s.ExtraOptions = map[string]string{"a\nb": secretish} }), `"a\nb"`},
		{"quoted role ID", withDefault(func(s *render.Store) { s.RoleID = `"` + secretish + `"` }), "approle_role_id"},
		{"empty role ID", withDefault(func(s *render.Store) { s.RoleID = "" }), "role ID"},
		{"LF in a store name", withDefault(func(s *render.Store) { s.Name = "bao\n[x" }), `"bao\n[x"`},
		{"comma in a store name", withDefault(func(s *render.Store) { s.Name = "a,b" }), `"a,b"`},
		{"no default", []render.Store{{Name: "a", URL: "https://a", RoleID: "r"}}, "default"},
		{"no store", nil, "default"},
		{"two defaults", []render.Store{managedStore(), {Name: "b", Default: true, URL: "https://b", RoleID: "r"}}, `"b"`},
		{"duplicate name", []render.Store{managedStore(), {Name: "openbao", URL: "https://b", RoleID: "r"}}, "twice"},
		{"broken non-default store name", []render.Store{managedStore(), {Name: "x]y", URL: "https://b", RoleID: "r"}}, `"x]y"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := render.StoreSections(tc.stores)
			if err == nil {
				t.Fatalf("no error; sections %v", got)
			}
			if got != nil {
				t.Errorf("sections returned with the error: %v", got)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %s", err, tc.want)
			}
			if strings.Contains(err.Error(), secretish) {
				t.Errorf("error %q carries the value", err)
			}
		})
	}
	// The unsafe-value refusals wrap ini.ErrUnsafe, so callers can tell
	// them from a missing default.
	_, err := render.StoreSections(withDefault(func(s *render.Store) { s.RoleID = "r\n" }))
	if !errors.Is(err, ini.ErrUnsafe) {
		t.Errorf("CR/LF error %v does not wrap ini.ErrUnsafe", err)
	}
}

// Only the default store's extraOptions reach [vault_plugin].
func TestStoreSectionsOtherStoresExtraOptions(t *testing.T) {
	other := render.Store{Name: "zz", URL: "https://zz", RoleID: "zz-role", ExtraOptions: map[string]string{"other_only": "1"}}
	got, err := render.StoreSections([]render.Store{managedStore(), other})
	if err != nil {
		t.Fatal(err)
	}
	if keys := slices.Sorted(maps.Keys(got["vault_plugin"])); slices.Contains(keys, "other_only") || got["vault_plugin"]["approle_role_id"] != testRoleID {
		t.Errorf("[vault_plugin] = %v, want the default store's alone", got["vault_plugin"])
	}
}
