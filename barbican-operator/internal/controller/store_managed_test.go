package controller_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	crmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// managedToReady drives a Barbican with the default managed store "vault"
// on inst to Ready.
func managedToReady(t *testing.T, ns string, inst *instance) *barbicanv1.Barbican {
	t.Helper()
	api.Set(ns, "barbican", testenv.FakeAPI(t, http.StatusOK, 0))
	must(t, k8s.Create(context.Background(), fixture.ManagedStore(ns, "vault", "barbican", inst.name, true)))
	must(t, k8s.Create(context.Background(), newBarbican(ns, "barbican")))
	suite.ProvisionDatabase(t, ns, "barbican")
	suite.FinishJob(t, ns, "barbican-db-sync", true)
	suite.RollOut(t, ns, "barbican")
	return waitCondition(t, ns, "barbican", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
}

// minted reads <store>-approle and its mint time.
func minted(t *testing.T, ns string) (map[string]string, time.Time, *corev1.Secret) {
	t.Helper()
	var s corev1.Secret
	must(t, k8s.Get(context.Background(), keyOf(ns, controller.ApproleSecretName("vault")), &s))
	at, err := time.Parse(time.RFC3339, s.Annotations[barbicanv1.AnnotationMintedAt])
	must(t, err)
	data := map[string]string{}
	for k, v := range s.Data {
		data[k] = string(v)
	}
	return data, at, &s
}

// remints reads barbican_operator_secretstore_remints_total of the store
// "vault" in ns from the manager's registry, 0 without a series.
func remints(t *testing.T, ns, trigger string) float64 {
	t.Helper()
	return remintSeries(t, ns)[trigger]
}

// remintSeries are the re-mint series of the store "vault" in ns, by trigger.
func remintSeries(t *testing.T, ns string) map[string]float64 {
	t.Helper()
	families, err := crmetrics.Registry.Gather()
	must(t, err)
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "barbican_operator_secretstore_remints_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["store"] == "vault" && labels["namespace"] == ns {
				out[labels["trigger"]] = m.GetCounter().GetValue()
			}
		}
	}
	return out
}

// A managed store provisions through the instance (TokenRequest, Kubernetes
// login, mount and role checks), mints the secret ID into <store>-approle
// with its annotations and an owner reference, and the Barbican runs on it.
// The initial mint is not counted.
func TestManagedStoreMintsAndReachesReady(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	inst := managedInstance(t, ns, "bao", 0)
	b := managedToReady(t, ns, inst)

	st := waitStore(t, ns, "vault", barbicanv1.ConditionProvisioningReady, metav1.ConditionTrue, barbicanv1.ReasonProvisioned)
	waitStore(t, ns, "vault", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	data, _, sec := minted(t, ns)
	if data[barbicanv1.KeyRoleID] == "" || data[barbicanv1.KeySecretID] == "" {
		t.Fatalf("<store>-approle holds %v", data)
	}
	if sec.Annotations[barbicanv1.AnnotationTTLSeconds] != "0" {
		t.Errorf("ttl annotation %q, want 0", sec.Annotations[barbicanv1.AnnotationTTLSeconds])
	}
	if ref := metav1.GetControllerOf(sec); ref == nil || ref.UID != st.UID {
		t.Errorf("<store>-approle is not controlled by the store: %v", sec.OwnerReferences)
	}
	if err := inst.srv.Call(context.Background(), http.MethodPut, "auth/approle/login", map[string]string{
		"role_id": data[barbicanv1.KeyRoleID], "secret_id": data[barbicanv1.KeySecretID]}, nil); err != nil {
		t.Errorf("the minted pair does not log in: %v", err)
	}
	if want := "https://bao." + ns + ".svc:8200"; len(b.Status.ProjectedSecretStoreHosts) != 1 || b.Status.ProjectedSecretStoreHosts[0] != want {
		t.Errorf("projectedSecretStoreHosts = %v, want [%s]", b.Status.ProjectedSecretStoreHosts, want)
	}
	_, conf := configOf(t, deployment(t, ns, "barbican"))
	for _, want := range []string{"approle_role_id = " + data[barbicanv1.KeyRoleID], "ssl_ca_crt_file = "} {
		if !strings.Contains(conf, want) {
			t.Errorf("barbican.conf lacks %q", want)
		}
	}
	if strings.Contains(conf, data[barbicanv1.KeySecretID]) {
		t.Error("the secret ID reached barbican.conf")
	}
	if n := remints(t, ns, controller.TriggerProactive) + remints(t, ns, controller.TriggerReactive); n != 0 {
		t.Errorf("the initial mint was counted: %v", n)
	}

	// Passes over unchanged inputs write nothing, though the store logs in
	// and probes its pair on each. Each store pass requests a provisioner
	// token (§2.4 step 1 runs every pass): a POST that stores no object,
	// the only one allowed.
	hits := testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: "barbican"})
	suite.QuietPasses(t, get(t, ns, "barbican"), hits)
	inCache(t, &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican"}})
	tokens := 0
	for _, w := range suite.QuietPasses(t, get(t, ns, "barbican"), hits) {
		if strings.HasPrefix(w, "POST /api/v1/namespaces/"+ns+"/serviceaccounts/bao-provisioner/token") {
			tokens++
			continue
		}
		t.Errorf("a pass over unchanged inputs wrote: %s", w)
	}
	if tokens == 0 {
		t.Error("no TokenRequest in the window: the store controller did not pass")
	}

	// An unparseable mint annotation is a fresh start: a new pair, not
	// counted as a re-mint.
	sec.Annotations[barbicanv1.AnnotationMintedAt] = "yesterday"
	must(t, k8s.Update(context.Background(), sec))
	suite.Eventually(t, "a new pair after an unparseable annotation", func() error {
		var now corev1.Secret
		if err := k8s.Get(context.Background(), keyOf(ns, controller.ApproleSecretName("vault")), &now); err != nil {
			return err
		}
		if string(now.Data[barbicanv1.KeySecretID]) == data[barbicanv1.KeySecretID] {
			return errorf("secret ID not replaced")
		}
		if _, err := time.Parse(time.RFC3339, now.Annotations[barbicanv1.AnnotationMintedAt]); err != nil {
			return errorf("mint annotation: %v", err)
		}
		return nil
	})
	if n := remints(t, ns, controller.TriggerProactive) + remints(t, ns, controller.TriggerReactive); n != 0 {
		t.Errorf("a mint after an unparseable annotation was counted: %v", n)
	}
}

// With a short secret_id_ttl the store re-mints after two thirds of it,
// before it lapses: counted as proactive, and the Deployment rolls onto the
// new secret ID while the Barbican stays Ready.
func TestManagedStoreReMintsBeforeTheTTL(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	const ttl = 45 * time.Second
	inst := managedInstance(t, ns, "bao", ttl)
	managedToReady(t, ns, inst)
	first, at, _ := minted(t, ns)
	d0 := deployment(t, ns, "barbican")
	hash := d0.Spec.Template.Annotations[render.StoreCredsHash]

	waits := testenv.Suite{Client: k8s, Timeout: ttl, Dump: suite.Dump}
	waits.Eventually(t, "proactive re-mint", func() error {
		data, now, _ := minted(t, ns)
		if data[barbicanv1.KeySecretID] == first[barbicanv1.KeySecretID] {
			return errorf("secret ID minted at %s not replaced yet", at)
		}
		if now.Sub(at) >= ttl {
			return errorf("re-minted %s after the first mint, past the %s TTL", now.Sub(at), ttl)
		}
		return nil
	})
	suite.Eventually(t, "re-mint counted", func() error {
		if n := remints(t, ns, controller.TriggerProactive); n != 1 {
			return errorf("proactive re-mints = %v", n)
		}
		return nil
	})
	suite.Eventually(t, "the Deployment rolls onto the new secret ID", func() error {
		if deployment(t, ns, "barbican").Spec.Template.Annotations[render.StoreCredsHash] == hash {
			return errorf("%s unchanged", render.StoreCredsHash)
		}
		return nil
	})
	suite.RollOutAfter(t, ns, "barbican", d0.Generation)
	waitCondition(t, ns, "barbican", conditions.TypeReady, metav1.ConditionTrue, "AllReady")

	// A deleted store takes its re-mint series with it.
	must(t, k8s.Delete(context.Background(), stores.New(ns, "vault")))
	suite.Eventually(t, "the re-mint series dropped", func() error {
		if series := remintSeries(t, ns); len(series) != 0 {
			return errorf("re-mint series of the deleted store: %v", series)
		}
		return nil
	})
}

// A secret ID the server revoked is reported while it is young (the server,
// not the schedule, is at fault) and replaced once it is ten minutes old
// (simulated through the mint annotation): counted as reactive.
func TestManagedStoreReMintsARevokedSecretID(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	inst := managedInstance(t, ns, "bao", 0)
	managedToReady(t, ns, inst)
	data, _, _ := minted(t, ns)
	must(t, inst.srv.DestroySecretID(context.Background(), controller.ManagedRole, data[barbicanv1.KeySecretID]))

	pokeStore(t, ns, "vault")
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonInvalidCredentials)
	suite.WaitEvent(t, ns, "vault", barbicanv1.ReasonInvalidCredentials, corev1.EventTypeWarning)

	suite.Eventually(t, "age the secret ID", func() error {
		_, _, sec := minted(t, ns)
		sec.Annotations[barbicanv1.AnnotationMintedAt] = time.Now().Add(-11 * time.Minute).UTC().Format(time.RFC3339)
		return k8s.Update(context.Background(), sec)
	})
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	if now, _, _ := minted(t, ns); now[barbicanv1.KeySecretID] == data[barbicanv1.KeySecretID] {
		t.Error("the revoked secret ID is still held")
	}
	if n := remints(t, ns, controller.TriggerReactive); n != 1 {
		t.Errorf("reactive re-mints = %v, want 1", n)
	}
}

// Each provisioning state of a managed store against a real instance.
func TestManagedStoreProvisioningStates(t *testing.T) {
	ctx, ns := withParent(t)
	prov := func(store, reason string) {
		t.Helper()
		waitStore(t, ns, store, barbicanv1.ConditionProvisioningReady, metav1.ConditionFalse, reason)
		suite.WaitEvent(t, ns, store, reason, corev1.EventTypeWarning)
		if c := storeCondition(waitStore(t, ns, store, conditions.TypeReady, metav1.ConditionFalse, "NotAllReady"),
			barbicanv1.ConditionCredentialsReady); c == nil || c.Status != metav1.ConditionFalse {
			t.Errorf("%s: CredentialsReady %v while not provisioned", store, c)
		}
	}

	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "none", "barbican", "missing", false)))
	prov("none", barbicanv1.ReasonInstanceNotFound)

	managedInstance(t, ns, "down", 0, "available")
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "down", "barbican", "down", false)))
	prov("down", barbicanv1.ReasonWaitingForInstance)

	managedInstance(t, ns, "nosa", 0, "serviceaccount")
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "nosa", "barbican", "nosa", false)))
	prov("nosa", barbicanv1.ReasonWaitingForInstance)

	managedInstance(t, ns, "notls", 0, "ca")
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "notls", "barbican", "notls", false)))
	prov("notls", barbicanv1.ReasonWaitingForInstanceTLS)

	// A provisioner that may check but not mint: the mint's 403 is
	// ProvisioningDenied on CredentialsReady, the instance itself provisioned.
	nomint := managedInstance(t, ns, "nomint", 0)
	must(t, nomint.srv.WritePolicy(ctx, openbao.ProvisionerPolicy, `path "sys/mounts/barbican" { capabilities = ["read"] }
path "auth/approle/role/barbican/role-id" { capabilities = ["read"] }
`))
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "nomint", "barbican", "nomint", false)))
	waitStore(t, ns, "nomint", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonProvisioningDenied)
	waitStore(t, ns, "nomint", barbicanv1.ConditionProvisioningReady, metav1.ConditionTrue, barbicanv1.ReasonProvisioned)
	suite.WaitEvent(t, ns, "nomint", barbicanv1.ReasonProvisioningDenied, corev1.EventTypeWarning)

	bare := managedInstance(t, ns, "bare", 0)
	must(t, bare.srv.DisableMount(ctx, barbicanv1.DefaultKVMountpoint))
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "bare", "barbican", "bare", false)))
	prov("bare", barbicanv1.ReasonInstanceNotProvisioned)

	norole := managedInstance(t, ns, "norole", 0)
	must(t, norole.srv.DeleteAppRole(ctx, controller.ManagedRole))
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "norole", "barbican", "norole", false)))
	prov("norole", barbicanv1.ReasonInstanceNotProvisioned)

	gone := managedInstance(t, ns, "gone", 0)
	gone.srv.Stop()
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "gone", "barbican", "gone", false)))
	prov("gone", barbicanv1.ReasonOpenBaoUnreachable)

	// The provisioner role is bound to <instance>-provisioner: a store whose
	// instance's ServiceAccount is another one is refused by the server.
	denied := managedInstance(t, ns, "denied", 0)
	must(t, denied.srv.Call(ctx, http.MethodPost, "auth/kubernetes/role/provisioner", map[string]any{
		"bound_service_account_names": []string{"someone-else"}, "bound_service_account_namespaces": []string{ns},
		"audience": "denied", "token_policies": []string{"provisioner"},
	}, nil))
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "denied", "barbican", "denied", false)))
	prov("denied", barbicanv1.ReasonProvisioningDenied)
}

// In a namespace that the chart's rbac.secretStoreNamespaces does not list,
// the operator (holding only the generated ClusterRole) may not request
// the provisioner's token: the API server's 403 is ProvisioningDenied,
// naming the namespace, and nothing is minted. Once the chart's Role is
// bound there, the next pass provisions and mints.
func TestProvisionerTokenForbidden(t *testing.T) {
	ctx, ns := withParent(t)
	managedInstance(t, ns, "vault", 0, "tokenrole")
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "vault", "barbican", "vault", true)))

	st := waitStore(t, ns, "vault", barbicanv1.ConditionProvisioningReady, metav1.ConditionFalse, barbicanv1.ReasonProvisioningDenied)
	if msg := storeCondition(st, barbicanv1.ConditionProvisioningReady).Message; !strings.Contains(msg, "TokenRequest") ||
		!strings.Contains(msg, "rbac.secretStoreNamespaces must list "+ns) {
		t.Errorf("ProvisioningReady message %q does not say which TokenRequest was refused and what to list", msg)
	}
	if c := storeCondition(st, barbicanv1.ConditionCredentialsReady); c == nil || c.Reason != barbicanv1.ReasonProvisioningDenied {
		t.Errorf("CredentialsReady %v, want ProvisioningDenied", c)
	}
	suite.WaitEvent(t, ns, "vault", barbicanv1.ReasonProvisioningDenied, corev1.EventTypeWarning)
	var s corev1.Secret
	if err := k8s.Get(ctx, keyOf(ns, controller.ApproleSecretName("vault")), &s); !apierrors.IsNotFound(err) {
		t.Errorf("AppRole Secret after a refused TokenRequest: %v", err)
	}

	grantTokenRequest(t, ns)
	pokeStore(t, ns, "vault")
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	minted(t, ns)
}

// pokeStore writes an annotation on the store: a pass follows.
func pokeStore(t *testing.T, ns, name string) {
	t.Helper()
	suite.Poke(t, &barbicanv1.BarbicanSecretStore{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
}
