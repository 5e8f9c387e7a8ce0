package barbican_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestInvalidCRsRefused: the webhooks the chart installed (served by the
// operator process) refuse what only Barbican has, each with a message
// that names the field and says why, and nothing is stored
// (barbican-api.md §3): the credential keys that must never reach the
// config file, in extraConfig and in a plugin's section, every violation
// of one Barbican in one answer; an option the release's catalog does not
// know (2026.1's [database] synchronous_reader on 2025.2, admitted on
// 2026.1); a name too long for the {name}-db-clean CronJob; a store named
// like one of barbican.conf's sections, too long for <store>-approle, or
// setting an operator key through extraOptions. The valid neighbours of
// the refused objects are admitted (dry run), so each refusal is the rule's.
func TestInvalidCRsRefused(t *testing.T) {
	in := suite.NewSite(t, env.K8s, env.K8s, "barbican", "b")
	refused := func(obj client.Object, want ...string) { t.Helper(); suite.Refused(t, env.K8s, obj, want...) }
	admitted := func(obj client.Object) {
		t.Helper()
		if err := env.K8s.Create(t.Context(), obj, client.DryRunAll); err != nil {
			t.Errorf("%T %s refused: %v", obj, obj.GetName(), err)
		}
	}
	barbican := func(name, release string, mutate func(*barbicanv1.Barbican)) *barbicanv1.Barbican {
		b := &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: in.NS, Name: name},
			Spec: barbicanv1.BarbicanSpec{ServiceSpec: in.Spec(release, "", env.DB.Port)}}
		if mutate != nil {
			mutate(b)
		}
		return b
	}
	admitted(barbican(in.Name, "2025.2", nil))

	// Every violation in one answer: two refused owned keys and a day of
	// week the CronJob API's parser refuses.
	refused(barbican(in.Name, "2025.2", func(b *barbicanv1.Barbican) {
		b.Spec.ExtraConfig = map[string]map[string]string{
			"keystone_authtoken": {"password": "in-the-file"},
			"vault_plugin":       {"root_token_id": "s.root"},
		}
		b.Spec.DBClean = &barbicanv1.DBCleanSpec{Schedule: "0 0 * * 7"}
	}),
		"spec.extraConfig[keystone_authtoken][password]", "delivered by the environment",
		"spec.extraConfig[vault_plugin][root_token_id]", "an unscoped token in plain text",
		"spec.dbClean.schedule", "must be standard cron")
	refused(barbican(in.Name, "2025.2", func(b *barbicanv1.Barbican) {
		b.Spec.Plugins = []serviceapi.PluginSpec{{Name: "vault", ConfigSection: "vault_plugin", Config: map[string]string{"approle_secret_id": "x"}}}
	}), "spec.plugins[0].config[approle_secret_id]", "cannot be set by a plugin")

	// The catalog is the release's.
	newOption := func(b *barbicanv1.Barbican) {
		b.Spec.ExtraConfig = map[string]map[string]string{"database": {"synchronous_reader": "true"}}
	}
	refused(barbican(in.Name, "2025.2", newOption),
		"spec.extraConfig[database][synchronous_reader]", "no such option in the barbican 2025.2 option catalog")
	admitted(barbican(in.Name, "2026.1", newOption))

	// {name}-db-clean must fit the 52-character CronJob name limit.
	long := "b-" + strings.Repeat("x", barbicanv1.MaxNameLength-1)
	refused(barbican(long, "2025.2", nil), "metadata.name", "-db-clean fits the 52-character CronJob name limit")
	admitted(barbican(long[:barbicanv1.MaxNameLength], "2025.2", nil))

	store := func(name string, extra map[string]string) *barbicanv1.BarbicanSecretStore {
		return &barbicanv1.BarbicanSecretStore{
			ObjectMeta: metav1.ObjectMeta{Namespace: in.NS, Name: name},
			Spec: barbicanv1.BarbicanSecretStoreSpec{
				BarbicanRef: barbicanv1.BarbicanRef{Name: in.Name}, Type: barbicanv1.StoreOpenBao, IsDefault: true,
				OpenBao: &barbicanv1.OpenBaoSpec{Server: &barbicanv1.OpenBaoServer{URL: "https://bao.example.org:8200",
					CredentialsSecretRef: barbicanv1.SecretRef{Name: "bao-approle"}}},
				ExtraOptions: extra,
			},
		}
	}
	admitted(store("vault", map[string]string{"timeout": "30"}))
	refused(store("secretstore", nil), "metadata.name", "is reserved")
	refused(store("s"+strings.Repeat("x", barbicanv1.MaxStoreNameLength), nil), "metadata.name", "-approle fits the 63-character limit")
	refused(store("vault", map[string]string{"root_token_id": "s.root"}),
		"spec.extraOptions[root_token_id]", "cannot be set through extraOptions")
}
