package controller_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// A store whose Barbican does not exist waits for it: nothing is checked,
// no Warning.
func TestStoreWaitsForItsParent(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	must(t, k8s.Create(context.Background(), fixture.BrownfieldStore(ns, "orphan", "nobody", "https://bao.example.org", "creds", "", true)))
	st := waitStore(t, ns, "orphan", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForParent)
	waitStore(t, ns, "orphan", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
	if n := len(suite.Events(t, ns, "orphan", barbicanv1.ReasonWaitingForParent)); n != 0 {
		t.Errorf("%d WaitingForParent events", n)
	}
	if st.Status.ObservedGeneration != st.Generation {
		t.Errorf("observedGeneration %d, generation %d", st.Status.ObservedGeneration, st.Generation)
	}
}

// Each failure state of a brownfield store's credentials, against a real
// server, with its Warning; the Barbican meanwhile sees no default store.
func TestBrownfieldStoreFailureStates(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	srv := bao(t, ns)
	ctx := context.Background()
	must(t, k8s.Create(ctx, newBarbican(ns, "barbican")))
	suite.ProvisionDatabase(t, ns, "barbican")

	// A credentials Secret without secret-id.
	suite.Secret(t, ns, "half", map[string]string{barbicanv1.KeyRoleID: "r"})
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "half", "barbican", srv.URL, "half", caSecret, true)))
	waitStore(t, ns, "half", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForCredentials)
	suite.WaitEvent(t, ns, "half", barbicanv1.ReasonWaitingForCredentials, corev1.EventTypeWarning)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForSecretStores)
	waitCondition(t, ns, "barbican", conditions.TypeDatabaseReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForSecretStores)
	waitCondition(t, ns, "barbican", conditions.TypeDeploymentReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForSecretStores)

	// A pair the server refuses.
	suite.Secret(t, ns, "wrong", map[string]string{barbicanv1.KeyRoleID: "not-a-role", barbicanv1.KeySecretID: "not-a-secret"})
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "wrong", "barbican", srv.URL, "wrong", caSecret, false)))
	waitStore(t, ns, "wrong", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonInvalidCredentials)
	suite.WaitEvent(t, ns, "wrong", barbicanv1.ReasonInvalidCredentials, corev1.EventTypeWarning)

	// A policy without list.
	must(t, srv.WritePolicy(ctx, "no-list", `path "barbican/data/*" { capabilities = ["create", "read", "update", "delete"] }`))
	roleID, secretID, err := srv.CreateAppRole(ctx, "narrow", openbao.AppRoleOptions{Policies: []string{"no-list"}})
	must(t, err)
	suite.Secret(t, ns, "narrow", map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID})
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "narrow", "barbican", srv.URL, "narrow", caSecret, false)))
	st := waitStore(t, ns, "narrow", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonInsufficientCapabilities)
	if c := storeCondition(st, barbicanv1.ConditionCredentialsReady); !strings.Contains(c.Message, "lacks list") {
		t.Errorf("message does not name the missing capability: %q", c.Message)
	}

	// A CA that did not sign the server's certificate.
	other := openbao.Start(t)
	suite.Secret(t, ns, "other-ca", map[string]string{barbicanv1.KeyCACert: string(other.CAPEM)})
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "untrusted", "barbican", srv.URL, approleSecret, "other-ca", false)))
	st = waitStore(t, ns, "untrusted", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonOpenBaoUnreachable)
	if c := storeCondition(st, barbicanv1.ConditionCredentialsReady); !strings.Contains(c.Message, "certificate") {
		t.Errorf("message does not say the certificate was refused: %q", c.Message)
	}

	// The good pair turns ready, then the server goes away.
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "good", "barbican", srv.URL, approleSecret, caSecret, false)))
	waitStore(t, ns, "good", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	srv.Stop()
	updateStore(t, ns, "good", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.ExtraOptions = map[string]string{"timeout": "30"} })
	waitStore(t, ns, "good", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonOpenBaoUnreachable)
	suite.WaitEvent(t, ns, "good", barbicanv1.ReasonOpenBaoUnreachable, corev1.EventTypeWarning)
}
