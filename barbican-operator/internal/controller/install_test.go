package controller_test

import (
	"context"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

var expectedTrueReason = map[string]string{
	conditions.TypeSecretsReady:           "SecretsAvailable",
	barbicanv1.ConditionSecretStoresReady: barbicanv1.ReasonAllStoresProjected,
	barbicanv1.ConditionDBCleanReady:      barbicanv1.ReasonDBCleanScheduled,
	conditions.TypeDatabaseReady:          "DatabaseSynced",
	conditions.TypeDeploymentReady:        "DeploymentReady",
	barbicanv1.ConditionBarbicanAPIReady:  "APIHealthy",
	conditions.TypeHPAReady:               "HPANotRequired",
	conditions.TypeNetworkPolicyReady:     "NetworkPolicyNotRequired",
	conditions.TypeHTTPRouteReady:         "HTTPRouteNotRequired",
	conditions.TypeExtraConfigHealthy:     "NoOwnedKeysOverridden",
}

func TestFreshInstallWithABrownfieldStoreReachesReady(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	b, srv := toReady(t, ns, newBarbican(ns, "barbican"))

	if b.Status.InstalledRelease != "2025.2" || b.Status.TargetRelease != "" {
		t.Errorf("installed %q, target %q", b.Status.InstalledRelease, b.Status.TargetRelease)
	}
	if want := "http://barbican." + ns + ".svc." + clusterDomain + ":9311"; b.Status.Endpoint != want {
		t.Errorf("endpoint = %q, want %q (host_href, no trailing slash)", b.Status.Endpoint, want)
	}
	if got := b.Status.ProjectedSecretStores; len(got) != 1 || got[0] != "vault" {
		t.Errorf("projectedSecretStores = %v", got)
	}
	if got := b.Status.ProjectedSecretStoreHosts; len(got) != 1 || got[0] != srv.URL {
		t.Errorf("projectedSecretStoreHosts = %v, want [%s]", got, srv.URL)
	}
	for c, reason := range expectedTrueReason {
		waitCondition(t, ns, "barbican", c, metav1.ConditionTrue, reason)
	}
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	waitStore(t, ns, "vault", barbicanv1.ConditionConfigProjected, metav1.ConditionTrue, barbicanv1.ReasonConfigProjected)
	st := waitStore(t, ns, "vault", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	for _, c := range st.Status.Conditions {
		if c.Type == barbicanv1.ConditionProvisioningReady {
			t.Errorf("a brownfield store reports %s", c.Type)
		}
	}

	d := deployment(t, ns, "barbican")
	name, conf := configOf(t, d)
	if !strings.HasPrefix(name, "barbican-config-") {
		t.Errorf("config Secret %q", name)
	}
	for _, want := range []string{"[secretstore:vault]", "[vault_plugin]", "vault_url = " + srv.URL, "approle_role_id = ", "host_href = " + b.Status.Endpoint + "\n"} {
		if !strings.Contains(conf, want) {
			t.Errorf("barbican.conf lacks %q:\n%s", want, conf)
		}
	}
	for _, secret := range []string{"db-secret", "ks-secret", "approle_secret_id"} {
		if strings.Contains(conf, secret) {
			t.Errorf("barbican.conf carries %q", secret)
		}
	}
	env := map[string]string{}
	for _, e := range d.Spec.Template.Spec.Containers[0].Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			env[e.Name] = e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
		}
	}
	if env[render.EnvSecretID] != approleSecret+"/"+barbicanv1.KeySecretID {
		t.Errorf("%s from %q", render.EnvSecretID, env[render.EnvSecretID])
	}
	for _, a := range []string{render.AuthtokenHash, render.DBConnHash, render.StoreCredsHash} {
		if d.Spec.Template.Annotations[a] == "" {
			t.Errorf("pod template lacks annotation %s", a)
		}
	}
	var cj batchv1.CronJob
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "barbican-db-clean"}, &cj))
	if cj.Spec.Suspend == nil || *cj.Spec.Suspend {
		t.Errorf("CronJob suspended once the schema is at the release: %v", cj.Spec.Suspend)
	}
	if reasons := suite.EventReasons(t, ns, "barbican"); reasons["DatabaseSynced"] == 0 {
		t.Errorf("no DatabaseSynced event: %v", reasons)
	}
}
