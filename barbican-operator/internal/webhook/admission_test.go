package webhook

import (
	"cmp"
	"context"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// otherNamespace holds a store beside one of the same name in at.Namespace.
const otherNamespace = "admission-other"

// One kube-apiserver + etcd for the package, with both generated CRDs and
// the generated webhook configurations installed, served by Register as the
// operator serves them.
var suite *at.Suite

var barbicanKind = at.Kind[*barbicanv1.Barbican]{
	Service: barbicanv1.ServiceName,
	GVK:     barbicanv1.GroupVersion.WithKind("Barbican"),
	New:     func(name string) *barbicanv1.Barbican { return newBarbican(at.Namespace, name) },
	Target: func(b *barbicanv1.Barbican) at.Target {
		return at.Target{Spec: &b.Spec.ServiceSpec, UWSGI: func() *serviceapi.UWSGISpec {
			b.Spec.APIServer = cmp.Or(b.Spec.APIServer, &barbicanv1.APIServerSpec{})
			b.Spec.APIServer.UWSGI = cmp.Or(b.Spec.APIServer.UWSGI, &serviceapi.UWSGISpec{})
			return b.Spec.APIServer.UWSGI
		}}
	},
}

// barbicanCatalog is what the 2025.2 catalog, the fixture's release, holds.
var barbicanCatalog = at.Catalog{Release: "2025.2", Section: "DEFAULT", Option: "max_allowed_secret_in_bytes"}

func TestMain(m *testing.M) {
	os.Exit(at.Main(m, at.Options{
		AddToScheme: barbicanv1.AddToScheme,
		Register: func(mgr ctrl.Manager) error {
			cats, err := catalog.Load()
			if err == nil {
				err = Register(mgr, cats)
			}
			return err
		},
		Objects: []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: otherNamespace}}},
	}, func(s *at.Suite) { suite = s }))
}

func TestAdmitsAndDefaultsBarbican(t *testing.T) {
	got := barbicanKind.AdmitsAndDefaults(t, suite, Defaults.Resources)
	if got.Spec.APIServer != nil || got.Spec.DBClean != nil {
		t.Errorf("render-time blocks written: apiServer %+v, dbClean %+v", got.Spec.APIServer, got.Spec.DBClean)
	}
}

// The cases the shared service spec brings to every service kind.
func TestSharedAdmission(t *testing.T) {
	barbicanKind.SharedAdmission(t, suite, barbicanCatalog, barbicanv1.Finalizer)
}

// dbClean written with a partial block stays partial: the webhook never
// fills it.
func TestAdmitsDBCleanUndefaulted(t *testing.T) {
	b := barbicanKind.New("db-clean-partial")
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true}
	if err := suite.Client.Create(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if d := b.Spec.DBClean; d.RetentionDays != nil || d.Schedule != "" || d.SoftDeleteExpiredSecrets != nil || d.CleanUnassociatedProjects != nil {
		t.Errorf("dbClean defaulted: %+v", d)
	}
}

// Every rule of barbican-api.md §3.2 and §3.3 on a real API server: the
// shared ones, then Barbican's own, each refused by the layer that owns it
// ("S" schema and CEL, "V" the validating webhook).
func TestRefusesEveryBarbicanRule(t *testing.T) {
	barbicanKind.Refuses(t, suite, "shared", barbicanKind.ServiceRefusals(barbicanCatalog))
	barbicanKind.Refuses(t, suite, "refused", barbicanRefusals())
}

func barbicanRefusals() []at.Refusal[*barbicanv1.Barbican] {
	r := func(name, layer string, mut func(b *barbicanv1.Barbican), want ...string) at.Refusal[*barbicanv1.Barbican] {
		return at.Refusal[*barbicanv1.Barbican]{Name: name, Mut: mut, Layer: layer, Want: want}
	}
	extra := func(section, key, value string) func(b *barbicanv1.Barbican) {
		return func(b *barbicanv1.Barbican) { b.Spec.ExtraConfig = map[string]map[string]string{section: {key: value}} }
	}
	cases := []at.Refusal[*barbicanv1.Barbican]{
		r("gateway hostname CR LF", "V", func(b *barbicanv1.Barbican) {
			b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "kms.example.org\r\n", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
		}, "spec.gateway.hostname", "must not contain CR or LF"),
		r("uwsgi processes below 1", "S", withUWSGI(serviceapi.UWSGISpec{Processes: -1}), "spec.apiServer.uwsgi.processes"),
		r("retentionDays below 1", "S", withDBClean(barbicanv1.DBCleanSpec{RetentionDays: new(int32(0))}), "spec.dbClean.retentionDays"),
		r("schedule with six fields", "V", withDBClean(barbicanv1.DBCleanSpec{Schedule: "0 1 0 * * *"}),
			"spec.dbClean.schedule", "must be standard cron", "has 6 fields"),
		r("schedule out of range", "V", withDBClean(barbicanv1.DBCleanSpec{Schedule: "1 0 * * 7"}),
			`day of week "7" must be 0-6 or SUN-SAT`),
		r("schedule longer than 128", "S", withDBClean(barbicanv1.DBCleanSpec{Schedule: strings.Repeat("*", 129)}), "spec.dbClean.schedule"),
		r("extraConfig AppRole secret ID", "V", extra("vault_plugin", "approle_secret_id", at.Secret),
			"spec.extraConfig[vault_plugin][approle_secret_id]", "Forbidden",
			"approle_secret_id is managed via the store's credentials Secret", "a file copy would plant the credential in the mounted config Secret"),
		r("extraConfig root token", "V", extra("vault_plugin", "root_token_id", at.Secret),
			"spec.extraConfig[vault_plugin][root_token_id]", "Forbidden",
			"root_token_id is managed via the store's AppRole", "an unscoped token in plain text would replace the AppRole login"),
		r("extraConfig service password says why", "V", extra("keystone_authtoken", "password", at.Secret),
			"delivered by the environment; a file copy would plant the credential in the mounted config Secret"),
		r("extraConfig option of the other release", "V", extra("database", "synchronous_reader", "true"),
			"spec.extraConfig[database][synchronous_reader]", "no such option in the barbican 2025.2 option catalog"),
		r("extraConfig CR LF in a store's section", "V", extra("secretstore:vault", "k", "v\n[DEFAULT]"),
			"spec.extraConfig[secretstore:vault][k]", "value must not contain CR or LF"),
		r("plugin sets the service password", "V", func(b *barbicanv1.Barbican) {
			b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "keystone_authtoken", Config: map[string]string{"password": at.Secret}}}
		}, "spec.plugins[0].config[password]", "cannot be set by a plugin"),
		r("plugin value CR LF", "V", func(b *barbicanv1.Barbican) {
			b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "p11_crypto_plugin", Config: map[string]string{"slot_id": "1\n"}}}
		}, "spec.plugins[0].config[slot_id]", "value must not contain CR or LF"),
		r("middleware value CR LF", "V", func(b *barbicanv1.Barbican) {
			b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "audit", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore,
				Config: map[string]string{"k": "v\r"}}}
		}, "spec.middleware[0].config[k]", "value must not contain CR or LF"),
	}
	long := r("name longer than 43", "V", func(*barbicanv1.Barbican) {}, "metadata.name", "must be at most 43 characters")
	long.Object = strings.Repeat("b", 44)
	return append(cases, long)
}

// admitted creates b, wants it admitted and returns the request's warnings.
func admitted(t *testing.T, b *barbicanv1.Barbican) []string { t.Helper(); return suite.Admit(t, b) }

// What the rules admit, on the edge of each, without warnings.
func TestAdmitsBarbicanEdges(t *testing.T) {
	cases := []at.Edge[*barbicanv1.Barbican]{
		{Name: "name of 43", Mut: func(b *barbicanv1.Barbican) { b.Name = strings.Repeat("b", 43) }},
		{Name: "schedule @daily, retention 1", Mut: withDBClean(barbicanv1.DBCleanSpec{Schedule: "@daily", RetentionDays: new(int32(1))})},
		{Name: "store sections and owned keys outside the catalog", Mut: func(b *barbicanv1.Barbican) {
			b.Spec.ExtraConfig = map[string]map[string]string{"secretstore:vault": {"anything": "1"},
				"keystone_authtoken": {"auth_url": "http://keystone:5000/v3"}, "vault_plugin": {"use_ssl": "true"}}
		}},
		{Name: "no catalog and no extraConfig: nothing skipped", Mut: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2027.1", "2027.1"
		}},
		{Name: "every block", Mut: func(b *barbicanv1.Barbican) {
			f := fullyValid()
			f.Name, f.Namespace = b.Name, b.Namespace
			*b = *f
		}},
	}
	barbicanKind.AdmitsEdges(t, suite, cases)
}

// Barbican's own warnings of barbican-api.md §3.2 arrive as API warnings
// on an admitted object (the catalog ones in the shared tests above).
func TestBarbicanWarnings(t *testing.T) {
	ctx := context.Background()
	t.Run("brownfield first run", func(t *testing.T) {
		b := barbicanKind.New("warned-brownfield")
		brownfieldDB(b)
		if w := admitted(t, b); len(w) != 1 || !strings.Contains(w[0], "spec.dbClean.suspend is not true") {
			t.Errorf("warnings = %q", w)
		}
		b = barbicanKind.New("quiet-brownfield")
		brownfieldDB(b)
		b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true}
		if w := admitted(t, b); len(w) != 0 {
			t.Errorf("suspended: warnings = %q", w)
		}
	})
	t.Run("retention lowered on update", func(t *testing.T) {
		b := barbicanKind.New("warned-retention")
		if err := suite.Client.Create(ctx, b); err != nil {
			t.Fatal(err)
		}
		suite.Warnings.Take()
		b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(14))}
		if err := suite.Client.Update(ctx, b); err != nil {
			t.Fatal(err)
		}
		if w := suite.Warnings.Take(); len(w) != 1 || !strings.Contains(w[0], "spec.dbClean.retentionDays lowered from 90 to 14 days") {
			t.Errorf("warnings = %q", w)
		}
	})
}

// The shared update rules (targetClusterRef immutable in CEL and webhook,
// the catalog skipped on unrelated changes) and Barbican's.
func TestBarbicanUpdateRules(t *testing.T) {
	barbicanKind.Updates(t, suite, "update", append(barbicanKind.ServiceUpdates(barbicanCatalog),
		at.Update[*barbicanv1.Barbican]{Name: "long name kept", Create: func(*barbicanv1.Barbican) {},
			Update: func(b *barbicanv1.Barbican) { b.Spec.Region = "RegionTwo" }},
		at.Update[*barbicanv1.Barbican]{Name: "schedule broken on update", Create: func(*barbicanv1.Barbican) {},
			Update: withDBClean(barbicanv1.DBCleanSpec{Schedule: "@every 5m"}),
			Layer:  "V", Want: []string{"spec.dbClean.schedule", "unknown descriptor"}},
		at.Update[*barbicanv1.Barbican]{Name: "refused key added on update", Create: func(*barbicanv1.Barbican) {},
			Update: func(b *barbicanv1.Barbican) {
				b.Spec.ExtraConfig = map[string]map[string]string{"vault_plugin": {"root_token_id": at.Secret}}
			},
			Layer: "V", Want: []string{"spec.extraConfig[vault_plugin][root_token_id]"}},
	))
}

// Each required field left out of a manifest is reported as missing, not
// as an empty value failing its pattern.
func TestRefusesMissingRequiredBarbicanField(t *testing.T) {
	withBlocks := func(b *barbicanv1.Barbican) {
		b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
		b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin"}}
	}
	cases := barbicanKind.ServiceMissing()
	for _, drop := range [][]string{
		{"spec", "middleware", "0", "name"}, {"spec", "middleware", "0", "filterFactory"}, {"spec", "middleware", "0", "position"},
		{"spec", "plugins", "0", "configSection"},
	} {
		cases = append(cases, at.Missing[*barbicanv1.Barbican]{Drop: drop, With: withBlocks})
	}
	barbicanKind.RefusesMissing(t, suite, "missing", cases)
}
