package webhook

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// storeKind runs the shared admission helpers on stores; each store gets a
// Barbican of its own, so the sibling rules leave the cases apart.
var storeKind = at.Kind[*barbicanv1.BarbicanSecretStore]{
	Service: barbicanv1.ServiceName,
	GVK:     barbicanv1.GroupVersion.WithKind("BarbicanSecretStore"),
	New: func(name string) *barbicanv1.BarbicanSecretStore {
		return managedStore(at.Namespace, name, name+"-parent")
	},
}

// onServer makes the store a brownfield one.
func onServer(s *barbicanv1.BarbicanSecretStore) {
	s.Spec.OpenBao = brownfieldStore(s.Namespace, s.Name, s.Spec.BarbicanRef.Name).Spec.OpenBao
}

func TestAdmitsStoreWithSchemaDefault(t *testing.T) {
	ctx := context.Background()
	suite.Warnings.Take()
	s := storeKind.New("admitted-managed")
	if err := suite.Client.Create(ctx, s); err != nil {
		t.Fatalf("create: %v", err)
	}
	if w := suite.Warnings.Take(); len(w) != 0 {
		t.Errorf("warnings = %q", w)
	}
	var got barbicanv1.BarbicanSecretStore
	if err := suite.Client.Get(ctx, client.ObjectKeyFromObject(s), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.OpenBao.KVMountpoint != "barbican" || !got.Spec.IsDefault {
		t.Errorf("spec = %+v, want kvMountpoint barbican from the schema", got.Spec.OpenBao)
	}
	b := storeKind.New("admitted-brownfield")
	onServer(b)
	b.Spec.ExtraOptions = map[string]string{"timeout": "30"}
	if err := suite.Client.Create(ctx, b); err != nil {
		t.Fatalf("brownfield: %v", err)
	}
	if w := suite.Warnings.Take(); len(w) != 0 {
		t.Errorf("brownfield warnings = %q", w)
	}
}

// One invalid store per rule of barbican-api.md §2.1 and §3.4, refused by
// the layer that owns it: "S" the schema and its CEL rules, "V" the webhook.
func TestRefusesEveryStoreRule(t *testing.T) {
	r := func(name, object, layer string, mut func(s *barbicanv1.BarbicanSecretStore), want ...string) at.Refusal[*barbicanv1.BarbicanSecretStore] {
		return at.Refusal[*barbicanv1.BarbicanSecretStore]{Name: name, Object: object, Mut: mut, Layer: layer, Want: want}
	}
	none := func(*barbicanv1.BarbicanSecretStore) {}
	brown := func(mut func(o *barbicanv1.OpenBaoSpec)) func(s *barbicanv1.BarbicanSecretStore) {
		return func(s *barbicanv1.BarbicanSecretStore) {
			onServer(s)
			mut(s.Spec.OpenBao)
		}
	}
	many := make(map[string]string, 33)
	for len(many) < 33 {
		many["opt_"+strconv.Itoa(len(many))] = "1"
	}
	storeKind.Refuses(t, suite, "store", []at.Refusal[*barbicanv1.BarbicanSecretStore]{
		// The schema's union, pin, pattern and bound rules.
		r("openBao missing", "", "S", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao = nil },
			"openBao is required when type is OpenBao"),
		r("type enum", "", "S", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.Type = "Vault" }, "spec.type", "Unsupported value"),
		r("instanceRef and server", "", "S", func(s *barbicanv1.BarbicanSecretStore) {
			s.Spec.OpenBao.Server = brownfieldStore("", "", "").Spec.OpenBao.Server
		}, "openBao needs exactly one of instanceRef and server"),
		r("neither instanceRef nor server", "", "S", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao = &barbicanv1.OpenBaoSpec{} },
			"openBao needs exactly one of instanceRef and server"),
		r("url not https", "", "S", brown(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "http://vault:8200" }),
			"spec.openBao.server.url", "should match '^https://'"),
		r("managed kvMountpoint pinned", "", "S", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.KVMountpoint = "secret" },
			"a managed store (instanceRef) must keep kvMountpoint barbican"),
		r("managed namespace", "", "S", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.Namespace = "tenant" },
			"openBao.namespace is for a brownfield server only"),
		r("credentials Secret name pattern", "", "S", brown(func(o *barbicanv1.OpenBaoSpec) { o.Server.CredentialsSecretRef.Name = "Creds" }),
			"spec.openBao.server.credentialsSecretRef.name"),
		r("more than 32 options", "", "S", options(many), "spec.extraOptions"),
		r("option key longer than 256", "", "S", options(map[string]string{strings.Repeat("k", 257): "v"}),
			"extraOptions keys must be at most 256 and values at most 1024 characters"),
		r("option value longer than 1024", "", "S", options(map[string]string{"k": strings.Repeat("v", 1025)}),
			"extraOptions keys must be at most 256 and values at most 1024 characters"),
		r("name with underscore", "vault_plugin", "S", none, "metadata.name"),
		// The webhook's own rules.
		r("name longer than 55", strings.Repeat("s", 56), "V", none, "metadata.name", "must be at most 55 characters", "-approle"),
		r("name default", "default", "V", none, "metadata.name", "is reserved", "in any case"),
		r("name database", "database", "V", none, "metadata.name", "is reserved"),
		r("name secretstore", "secretstore", "V", none, "metadata.name", "is reserved"),
		r("name queue", "queue", "V", none, "metadata.name", "is reserved"),
		r("name healthcheck", "healthcheck", "V", none, "metadata.name", "is reserved"),
		r("url without host", "", "V", brown(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "https:///v1" }),
			"spec.openBao.server.url", "must be an https URL with a host"),
		r("url CR LF", "", "V", brown(func(o *barbicanv1.OpenBaoSpec) { o.Server.URL = "https://vault\n[DEFAULT]" }),
			"spec.openBao.server.url", "must not contain CR or LF"),
		r("instance name CR LF", "", "V", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.InstanceRef.Name = "bao\r\n" },
			"spec.openBao.instanceRef.name", "must not contain CR or LF"),
		r("kvMountpoint CR LF", "", "V", brown(func(o *barbicanv1.OpenBaoSpec) { o.KVMountpoint = "kv\n" }),
			"spec.openBao.kvMountpoint", "must not contain CR or LF"),
		r("namespace CR LF", "", "V", brown(func(o *barbicanv1.OpenBaoSpec) { o.Namespace = "ns\r" }),
			"spec.openBao.namespace", "must not contain CR or LF"),
		r("option key pattern", "", "V", options(map[string]string{"vault-timeout": "1"}),
			"spec.extraOptions[vault-timeout]", "^[A-Za-z0-9_]+$"),
		r("option key denylisted", "", "V", options(map[string]string{"vault_url": "https://elsewhere"}),
			"spec.extraOptions[vault_url]", "Forbidden", "vault_url cannot be set through extraOptions"),
		r("option root token", "", "V", options(map[string]string{"root_token_id": at.Secret}),
			"spec.extraOptions[root_token_id]", "unscoped credential"),
		r("option value CR LF", "", "V", options(map[string]string{"timeout": "30\n[DEFAULT]"}),
			"spec.extraOptions[timeout]", "value must not contain CR or LF"),
	})
}

// Updates: the CRD's transition rules refuse what the webhook re-checks;
// the URL, CA, isDefault and options stay mutable.
func TestStoreUpdateRules(t *testing.T) {
	none := func(*barbicanv1.BarbicanSecretStore) {}
	storeKind.Updates(t, suite, "store-update", []at.Update[*barbicanv1.BarbicanSecretStore]{
		{Name: "barbicanRef changed", Create: none,
			Update: func(s *barbicanv1.BarbicanSecretStore) { s.Spec.BarbicanRef.Name = "another" },
			Layer:  "S", Want: []string{"barbicanRef is immutable"}},
		{Name: "type changed", Create: none,
			Update: func(s *barbicanv1.BarbicanSecretStore) { s.Spec.Type = "Vault" },
			Layer:  "S", Want: []string{"spec.type"}},
		{Name: "managed to brownfield", Create: none,
			Update: func(s *barbicanv1.BarbicanSecretStore) { onServer(s); s.Spec.OpenBao.KVMountpoint = "barbican" },
			Layer:  "S", Want: []string{"openBao mode is immutable"}},
		{Name: "kvMountpoint changed", Create: onServer,
			Update: func(s *barbicanv1.BarbicanSecretStore) { s.Spec.OpenBao.KVMountpoint = "kv2" },
			Layer:  "S", Want: []string{"kvMountpoint is immutable"}},
		{Name: "url, CA, isDefault and options changed", Create: onServer,
			Update: func(s *barbicanv1.BarbicanSecretStore) {
				s.Spec.OpenBao.Server.URL = "https://vault-2.example.org"
				s.Spec.OpenBao.Server.CABundleSecretRef = &barbicanv1.SecretRef{Name: "vault-ca"}
				s.Spec.IsDefault = false
				s.Spec.ExtraOptions = map[string]string{"timeout": "5"}
			}},
		{Name: "webhook rule on update", Create: none,
			Update: func(s *barbicanv1.BarbicanSecretStore) {
				s.Spec.ExtraOptions = map[string]string{"global_default": "True"}
			},
			Layer: "V", Want: []string{"spec.extraOptions[global_default]", "rendered from spec.isDefault"}},
	})
}

// The sibling rules read the API server, not a cache: a second store of
// the same Barbican is refused right after the first, a terminating one no
// longer counts, and other Barbicans and namespaces never do.
func TestStoreSiblingsOnTheAPIServer(t *testing.T) {
	ctx := context.Background()
	hold := "test.example.org/hold"
	first := managedStore(at.Namespace, "first", "shared-parent")
	first.Finalizers = []string{hold}
	if err := suite.Client.Create(ctx, first); err != nil {
		t.Fatal(err)
	}
	second := managedStore(at.Namespace, "second", "shared-parent")
	storeKind.CheckRefused(t, suite.Client.Create(ctx, second), "V", []string{"spec.isDefault", "spec.type",
		`Barbican "shared-parent" already has the default store first`, `Barbican "shared-parent" already has the OpenBao store first`})
	for _, ok := range []*barbicanv1.BarbicanSecretStore{
		managedStore(at.Namespace, "second-elsewhere", "other-parent"),
		managedStore(otherNamespace, "second", "shared-parent"),
	} {
		if err := suite.Client.Create(ctx, ok); err != nil {
			t.Errorf("%s/%s refused: %v", ok.Namespace, ok.Name, err)
		}
	}
	// A lone store may turn default on update: it is its own sibling.
	plain := managedStore(at.Namespace, "plain", "other-parent-2")
	plain.Spec.IsDefault = false
	if err := suite.Client.Create(ctx, plain); err != nil {
		t.Fatal(err)
	}
	plain.Spec.IsDefault = true
	if err := suite.Client.Update(ctx, plain); err != nil {
		t.Errorf("isDefault on a lone store refused: %v", err)
	}

	if err := suite.Client.Delete(ctx, first); err != nil {
		t.Fatal(err)
	}
	if err := suite.Client.Create(ctx, managedStore(at.Namespace, "second", "shared-parent")); err != nil {
		t.Fatalf("store beside a terminating one refused: %v", err)
	}
	// Dropping the finalizer is an update of a store that now conflicts.
	err := suite.Client.Get(ctx, client.ObjectKeyFromObject(first), first)
	if err == nil {
		first.Finalizers = nil
		err = suite.Client.Update(ctx, first)
	}
	if err != nil {
		t.Errorf("finalizer removal refused: %v", err)
	}
}

func TestRefusesMissingRequiredStoreField(t *testing.T) {
	var cases []at.Missing[*barbicanv1.BarbicanSecretStore]
	for _, drop := range [][]string{
		{"spec", "barbicanRef"}, {"spec", "barbicanRef", "name"}, {"spec", "openBao", "instanceRef", "name"},
	} {
		cases = append(cases, at.Missing[*barbicanv1.BarbicanSecretStore]{Drop: drop})
	}
	for _, drop := range [][]string{
		{"spec", "openBao", "server", "url"}, {"spec", "openBao", "server", "credentialsSecretRef"},
		{"spec", "openBao", "server", "credentialsSecretRef", "name"},
	} {
		cases = append(cases, at.Missing[*barbicanv1.BarbicanSecretStore]{Drop: drop, With: onServer})
	}
	storeKind.RefusesMissing(t, suite, "store-missing", cases)
}
