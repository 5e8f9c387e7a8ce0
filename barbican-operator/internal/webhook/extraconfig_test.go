package webhook

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// extraConfig against barbican's catalogs (barbican-api.md §3.3): what is
// refused and why, and what is exempt.
func TestValidatorExtraConfig(t *testing.T) {
	v := barbicanValidator(t, nil)
	cases := []struct {
		name    string
		release string
		extra   map[string]map[string]string
		want    []at.FieldErr
		says    []string // in the refusal
	}{
		{"service password refused", "2025.2", map[string]map[string]string{"keystone_authtoken": {"password": at.Secret}},
			errsOf(at.Forbidden("spec.extraConfig[keystone_authtoken][password]")),
			[]string{"password is managed via spec.serviceUser.secretRef", "delivered by the environment; a file copy would plant the credential in the mounted config Secret"}},
		{"AppRole secret ID refused", "2025.2", map[string]map[string]string{"vault_plugin": {"approle_secret_id": at.Secret}},
			errsOf(at.Forbidden("spec.extraConfig[vault_plugin][approle_secret_id]")),
			[]string{"approle_secret_id is managed via the store's credentials Secret", "delivered by the environment"}},
		{"root token refused", "2026.1", map[string]map[string]string{"vault_plugin": {"root_token_id": at.Secret}},
			errsOf(at.Forbidden("spec.extraConfig[vault_plugin][root_token_id]")),
			[]string{"root_token_id is managed via the store's AppRole", "unscoped token in plain text would replace the AppRole login"}},
		{"refused keys in a store's section are not refused", "2025.2",
			map[string]map[string]string{"secretstore:vault": {"root_token_id": "x", "password": "y"}}, nil, nil},
		{"unknown option", "2025.2", map[string]map[string]string{"vault_plugin": {"token_ttl": "1"}},
			errsOf(at.Invalid("spec.extraConfig[vault_plugin][token_ttl]")), []string{"no such option in the barbican 2025.2 option catalog"}},
		{"unknown section, reported once", "2025.2", map[string]map[string]string{"nova": {"a": "1", "b": "2"}},
			errsOf(at.Invalid("spec.extraConfig[nova]")), []string{"no such section in the barbican 2025.2 option catalog"}},
		{"option new in 2026.1 refused in 2025.2", "2025.2", map[string]map[string]string{"database": {"synchronous_reader": "true"}},
			errsOf(at.Invalid("spec.extraConfig[database][synchronous_reader]")), nil},
		{"option new in 2026.1", "2026.1", map[string]map[string]string{"database": {"synchronous_reader": "true"}}, nil, nil},
		{"option removed in 2026.1", "2026.1", map[string]map[string]string{"DEFAULT": {"watch_log_file": "true"}},
			errsOf(at.Invalid("spec.extraConfig[DEFAULT][watch_log_file]")), []string{"barbican 2026.1 option catalog"}},
		{"store sections exempt from the catalog", "2025.2", map[string]map[string]string{
			"secretstore:vault": {"anything": "1"}, "secretstore:other-store": {"x": "y"}}, nil, nil},
		{"the bare prefix is no store's section", "2025.2", map[string]map[string]string{"secretstore:": {"x": "1"}},
			errsOf(at.Invalid("spec.extraConfig[secretstore:]")), []string{"no such section"}},
		{"registry keys exempt from the catalog", "2025.2", map[string]map[string]string{
			"keystone_authtoken": {"auth_url": "http://k", "username": "u", "project_name": "p", "user_domain_name": "d",
				"project_domain_name": "d"},
			"DEFAULT": {"host_href": "https://kms", "db_auto_create": "true"}, "queue": {"enable": "true"}}, nil, nil},
		{"store sections still refuse CR LF", "2025.2", map[string]map[string]string{"secretstore:vault": {"k": "v\n[DEFAULT]"}},
			errsOf(at.Invalid("spec.extraConfig[secretstore:vault][k]")), []string{"value must not contain CR or LF"}},
		{"empty section and key, CR LF in names", "2025.2", map[string]map[string]string{
			"": {"x": "1"}, "DEFAULT": {"": "1"}, "a\nb": {"c": "1"}, "queue": {"d\r": "1"}},
			errsOf(at.Invalid("spec.extraConfig[]"), at.Invalid("spec.extraConfig[DEFAULT][]"), at.Invalid("spec.extraConfig[a\nb]"),
				at.Invalid("spec.extraConfig[queue][d\r]")), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := valid()
			b.Spec.OpenStackRelease, b.Spec.Image.Tag, b.Spec.ExtraConfig = tc.release, tc.release, tc.extra
			_, err := v.Validate(context.Background(), b, nil)
			if got := at.Causes(t, err, BarbicanKind); !slices.Equal(got, tc.want) {
				t.Fatalf("causes = %v, want %v (%v)", got, tc.want, err)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("refusal does not say %q: %v", s, err)
				}
			}
			if err != nil && strings.Contains(err.Error(), at.Secret) {
				t.Errorf("refusal echoes a secret: %v", err)
			}
		})
	}
}

// On update the catalog is checked only when extraConfig or the release
// changed; refused keys are refused on every update.
func TestValidatorExtraConfigOnUpdate(t *testing.T) {
	v := barbicanValidator(t, nil)
	old := valid()
	old.Spec.OpenStackRelease, old.Spec.Image.Tag = "2024.2", "2024.2" // no catalog: admitted with a warning
	old.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"no_such_option": "1"}}
	if w, err := v.Validate(context.Background(), old, nil); err != nil || len(w) != 1 {
		t.Fatalf("create: warnings %q, err %v", w, err)
	}
	b := old.DeepCopy()
	b.Spec.Region = "RegionTwo"
	if w, err := v.Validate(context.Background(), b, old); err != nil || len(w) != 0 {
		t.Errorf("unrelated change: warnings %q, err %v", w, err)
	}
	b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2025.2", "2025.2"
	if _, err := v.Validate(context.Background(), b, old); !slices.Equal(at.Causes(t, err, BarbicanKind),
		errsOf(at.Invalid("spec.extraConfig[DEFAULT][no_such_option]"))) {
		t.Errorf("release moved to a catalog: %v", err)
	}
	b = old.DeepCopy()
	b.Spec.ExtraConfig["DEFAULT"]["other"] = "2"
	if w, err := v.Validate(context.Background(), b, old); err != nil || len(w) != 1 {
		t.Errorf("extraConfig changed under a release without catalog: warnings %q, err %v", w, err)
	}
	// A refused key stored before the rule is refused on any update.
	old = valid()
	old.Spec.ExtraConfig = map[string]map[string]string{"vault_plugin": {"root_token_id": at.Secret}}
	b = old.DeepCopy()
	b.Spec.Region = "RegionThree"
	if _, err := v.Validate(context.Background(), b, old); !slices.Equal(at.Causes(t, err, BarbicanKind),
		errsOf(at.Forbidden("spec.extraConfig[vault_plugin][root_token_id]"))) {
		t.Errorf("kept refused key: %v", err)
	}
}

// The renderer's registry, which admission refuses and exempts by, holds
// exactly the keys of barbican-api.md §4.2, the three credential keys
// refused, each with an owner and a reason for the message.
func TestOwnedKeysAreTheRenderedOnes(t *testing.T) {
	want := map[string][]string{
		"DEFAULT":  {"db_auto_create", "host_href"},
		"database": {"connection"},
		"keystone_authtoken": {"auth_type", "auth_url", "memcached_servers", "password", "project_domain_name", "project_name",
			"region_name", "user_domain_name", "username", "www_authenticate_uri"},
		"oslo_policy":  {"policy_file"},
		"queue":        {"enable"},
		"secretstore":  {"enable_multiple_secret_stores", "stores_lookup_suffix"},
		"vault_plugin": {"approle_role_id", "approle_secret_id", "kv_mountpoint", "namespace", "root_token_id", "ssl_ca_crt_file", "use_ssl", "vault_url"},
	}
	got := map[string][]string{}
	var refused []string
	for _, o := range render.OwnedKeys {
		got[o.Section] = append(got[o.Section], o.Key)
		if o.Rejected {
			refused = append(refused, "["+o.Section+"] "+o.Key)
		}
		if o.Owner == "" || o.Impact == "" {
			t.Errorf("[%s] %s: owner or impact missing", o.Section, o.Key)
		}
	}
	for sec := range got {
		slices.Sort(got[sec])
	}
	if len(got) != len(want) {
		t.Errorf("sections = %v, want %v", got, want)
	}
	for sec, keys := range want {
		if !slices.Equal(got[sec], keys) {
			t.Errorf("[%s] = %v, want %v", sec, got[sec], keys)
		}
	}
	slices.Sort(refused)
	if w := []string{"[keystone_authtoken] password", "[vault_plugin] approle_secret_id", "[vault_plugin] root_token_id"}; !slices.Equal(refused, w) {
		t.Errorf("refused = %v, want %v", refused, w)
	}
}
