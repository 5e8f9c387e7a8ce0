package webhook

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

func options(kv map[string]string) func(s *barbicanv1.BarbicanSecretStore) {
	return func(s *barbicanv1.BarbicanSecretStore) { s.Spec.ExtraOptions = kv }
}

func named(n string) func(s *barbicanv1.BarbicanSecretStore) {
	return func(s *barbicanv1.BarbicanSecretStore) { s.Name = n }
}

// asBrownfield turns the store into a brownfield one.
func asBrownfield(mut func(o *barbicanv1.OpenBaoSpec)) func(s *barbicanv1.BarbicanSecretStore) {
	return func(s *barbicanv1.BarbicanSecretStore) {
		s.Spec.OpenBao = brownfieldStore(s.Namespace, s.Name, s.Spec.BarbicanRef.Name).Spec.OpenBao
		mut(s.Spec.OpenBao)
	}
}

// storeRules: one case per lookup-free store rule of barbican-api.md §2.1
// and §3.4 on create; an empty want is admitted. says is in the first detail.
var storeRules = []struct {
	name string
	mut  func(s *barbicanv1.BarbicanSecretStore)
	want []at.FieldErr
	says string
}{
	{"managed store", func(*barbicanv1.BarbicanSecretStore) {}, nil, ""},
	{"brownfield store", asBrownfield(func(*barbicanv1.OpenBaoSpec) {}), nil, ""},
	{"name longer than 55", named(strings.Repeat("s", 56)), errsOf(at.Invalid("metadata.name")),
		"must be at most 55 characters, so the Secret " + strings.Repeat("s", 56) + "-approle fits"},
	{"name of 55", named(strings.Repeat("s", 55)), nil, ""},
	{"name default", named("default"), errsOf(at.Invalid("metadata.name")), "is reserved"},
	{"name DEFAULT, any case", named("DEFAULT"), errsOf(at.Invalid("metadata.name")), "in any case"},
	{"name Database", named("Database"), errsOf(at.Invalid("metadata.name")), ""},
	{"name keystone_authtoken", named("keystone_authtoken"), errsOf(at.Invalid("metadata.name")), ""},
	{"name secretstore", named("secretstore"), errsOf(at.Invalid("metadata.name")), ""},
	{"name vault_plugin", named("Vault_Plugin"), errsOf(at.Invalid("metadata.name")), ""},
	{"name queue", named("queue"), errsOf(at.Invalid("metadata.name")), ""},
	{"name oslo_policy", named("oslo_policy"), errsOf(at.Invalid("metadata.name")), ""},
	{"name oslo_middleware", named("oslo_middleware"), errsOf(at.Invalid("metadata.name")), ""},
	{"name healthcheck", named("healthcheck"), errsOf(at.Invalid("metadata.name")), ""},
	{"name vault-plugin admitted", named("vault-plugin"), nil, ""},
	{"type unknown", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.Type = "Vault" },
		errsOf(notSupported("spec.type"), at.Forbidden("spec.openBao")), ""},
	{"openBao missing", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao = nil },
		errsOf(at.Required("spec.openBao")), "is required when type is OpenBao"},
	{"instanceRef and server", func(s *barbicanv1.BarbicanSecretStore) {
		s.Spec.OpenBao.Server = brownfieldStore("", "", "").Spec.OpenBao.Server
	}, errsOf(at.Invalid("spec.openBao")), "needs exactly one of openBao.instanceRef"},
	{"neither instanceRef nor server", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao = &barbicanv1.OpenBaoSpec{} },
		errsOf(at.Invalid("spec.openBao")), "needs exactly one of"},
	{"url http", asBrownfield(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "http://vault:8200" }),
		errsOf(at.Invalid("spec.openBao.server.url")), "must be an https URL with a host"},
	{"url HTTPS upper case", asBrownfield(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "HTTPS://vault:8200" }),
		errsOf(at.Invalid("spec.openBao.server.url")), "over TLS only"},
	{"url without host", asBrownfield(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "https:///v1" }),
		errsOf(at.Invalid("spec.openBao.server.url")), "must be an https URL with a host"},
	{"url CR LF", asBrownfield(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "https://vault\n[DEFAULT]" }),
		errsOf(at.Invalid("spec.openBao.server.url")), "must not contain CR or LF"},
	{"managed kvMountpoint other than barbican", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.KVMountpoint = "secret" },
		errsOf(at.Invalid("spec.openBao.kvMountpoint")), "must keep kvMountpoint barbican"},
	{"managed kvMountpoint barbican", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.KVMountpoint = "barbican" }, nil, ""},
	{"managed namespace", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.Namespace = "tenant" },
		errsOf(at.Forbidden("spec.openBao.namespace")), "brownfield server (openBao.server) only"},
	{"instance name CR LF", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.InstanceRef.Name = "bao\r\n" },
		errsOf(at.Invalid("spec.openBao.instanceRef.name")), "must not contain CR or LF"},
	{"brownfield kvMountpoint and namespace CR LF", asBrownfield(func(o *barbicanv1.OpenBaoSpec) {
		o.KVMountpoint, o.Namespace = "kv\n", "ns\r"
	}), errsOf(at.Invalid("spec.openBao.kvMountpoint"), at.Invalid("spec.openBao.namespace")), "must not contain CR or LF"},
	{"option key pattern", options(map[string]string{"vault-timeout": "1", "a b": "2", "": "3"}),
		errsOf(at.Invalid("spec.extraOptions[]"), at.Invalid("spec.extraOptions[a b]"), at.Invalid("spec.extraOptions[vault-timeout]")),
		"key must match ^[A-Za-z0-9_]+$"},
	{"option value CR LF", options(map[string]string{"timeout": "30\n[DEFAULT]"}),
		errsOf(at.Invalid("spec.extraOptions[timeout]")), "value must not contain CR or LF"},
	{"other options admitted", options(map[string]string{"timeout": "30", "Approle_Mount_Point": "x"}), nil, ""},
}

func TestStoreSpecRules(t *testing.T) {
	for _, tc := range storeRules {
		t.Run(tc.name, func(t *testing.T) {
			s := store("vault")
			tc.mut(s)
			wantErrs(t, StoreSpec(s, nil), tc.want, tc.says)
		})
	}
}

// Every denylisted extraOptions key, in any case, is forbidden with its reason.
func TestStoreDeniedOptions(t *testing.T) {
	keys := []string{"vault_url", "use_ssl", "ssl_ca_crt_file", "approle_role_id", "approle_secret_id", "root_token_id",
		"kv_mountpoint", "namespace", "secret_store_plugin", "crypto_plugin", "global_default"}
	if len(render.DeniedExtraOptions) != len(keys) {
		t.Errorf("denylist has %d keys, want %d", len(render.DeniedExtraOptions), len(keys))
	}
	for _, k := range append(keys, "Vault_URL", "ROOT_TOKEN_ID") {
		s := store("vault")
		s.Spec.ExtraOptions = map[string]string{k: at.Secret}
		errs := StoreSpec(s, nil)
		if got := at.Summarize(errs); !slices.Equal(got, errsOf(at.Forbidden(fmt.Sprintf("spec.extraOptions[%s]", k)))) {
			t.Errorf("%s: %v", k, got)
			continue
		}
		if d := errs[0].Detail; !strings.HasPrefix(d, k+" cannot be set through extraOptions: ") || strings.Contains(d, at.Secret) {
			t.Errorf("%s: detail %q", k, d)
		}
	}
}

// Updates re-check the CRD's immutability; the url and isDefault may change,
// and the create-only name bound is not applied.
func TestStoreSpecOnUpdate(t *testing.T) {
	cases := []struct {
		name string
		old  *barbicanv1.BarbicanSecretStore
		mut  func(s *barbicanv1.BarbicanSecretStore)
		want []at.FieldErr
		says string
	}{
		{"barbicanRef changed", store("vault"), func(s *barbicanv1.BarbicanSecretStore) { s.Spec.BarbicanRef.Name = "other" },
			errsOf(at.Invalid("spec.barbicanRef.name")), `is immutable (was "barbican")`},
		{"type changed", store("vault"), func(s *barbicanv1.BarbicanSecretStore) { s.Spec.Type = "Vault" },
			errsOf(notSupported("spec.type"), at.Forbidden("spec.openBao"), at.Invalid("spec.type")), ""},
		{"managed to brownfield", store("vault"), asBrownfield(func(o *barbicanv1.OpenBaoSpec) { o.KVMountpoint = "barbican" }),
			errsOf(at.Invalid("spec.openBao")), "mode is immutable: it was managed (instanceRef) and is now brownfield (server)"},
		{"brownfield to managed", brownfieldStore("openstack", "vault", "barbican"), func(s *barbicanv1.BarbicanSecretStore) {
			s.Spec.OpenBao = store("vault").Spec.OpenBao
		}, errsOf(at.Invalid("spec.openBao"), at.Invalid("spec.openBao.kvMountpoint")), ""},
		{"kvMountpoint changed", brownfieldStore("openstack", "vault", "barbican"), func(s *barbicanv1.BarbicanSecretStore) {
			s.Spec.OpenBao.KVMountpoint = "kv2"
		}, errsOf(at.Invalid("spec.openBao.kvMountpoint")), `is immutable (was "secret")`},
		{"kvMountpoint written as its default", store("vault"), func(s *barbicanv1.BarbicanSecretStore) {
			s.Spec.OpenBao.KVMountpoint = "barbican"
		}, nil, ""},
		{"url, CA, isDefault and options changed", brownfieldStore("openstack", "vault", "barbican"), func(s *barbicanv1.BarbicanSecretStore) {
			s.Spec.OpenBao.Server.URL = "https://vault-2.example.org"
			s.Spec.OpenBao.Server.CABundleSecretRef = &barbicanv1.SecretRef{Name: "ca"}
			s.Spec.IsDefault = false
			s.Spec.ExtraOptions = map[string]string{"timeout": "5"}
		}, nil, ""},
		{"long name kept", store(strings.Repeat("s", 60)), func(*barbicanv1.BarbicanSecretStore) {}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.old.DeepCopy()
			tc.mut(s)
			errs := StoreSpec(s, tc.old)
			if got := at.Summarize(errs); !slices.Equal(got, tc.want) {
				t.Fatalf("errors = %v, want %v\n(%v)", got, tc.want, errs)
			}
			if tc.says != "" && !strings.Contains(fmt.Sprint(errs), tc.says) {
				t.Errorf("errors %v do not contain %q", errs, tc.says)
			}
		})
	}
}

// A store is admitted through the hook without warnings, on create and update.
func TestStoreValidatorNeverWarns(t *testing.T) {
	v := storeValidator(nil)
	for _, s := range []*barbicanv1.BarbicanSecretStore{store("vault"), brownfieldStore("openstack", "bao", "barbican")} {
		if w, err := v.Hook().ValidateCreate(context.Background(), s); err != nil || w != nil {
			t.Errorf("%s create: %q %v", s.Name, w, err)
		}
		if w, err := v.Hook().ValidateUpdate(context.Background(), s.DeepCopy(), s); err != nil || w != nil {
			t.Errorf("%s update: %q %v", s.Name, w, err)
		}
	}
}
