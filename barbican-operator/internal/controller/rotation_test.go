package controller_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
)

// Each env-delivered credential is digested into the pod template: a new
// service-user password and a new AppRole secret ID each roll the
// Deployment once, and only their own annotation changes.
func TestRotationRollsTheDeployment(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	_, srv := toReady(t, ns, newBarbican(ns, "barbican"))

	rolls := []struct {
		what       string
		annotation string
		rotate     func()
	}{
		{"service-user password", render.AuthtokenHash, func() {
			suite.SetSecret(t, ns, "barbican-service-user", map[string]string{"password": "rotated"})
		}},
		{"AppRole secret ID", render.StoreCredsHash, func() {
			secretID, err := srv.MintSecretID(context.Background(), "barbican")
			must(t, err)
			var roleID string
			suite.Eventually(t, "read role ID", func() error {
				roleID = readSecret(t, ns, approleSecret)[barbicanv1.KeyRoleID]
				return nil
			})
			suite.SetSecret(t, ns, approleSecret, map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID})
		}},
	}
	for _, r := range rolls {
		before := deployment(t, ns, "barbican").Spec.Template.Annotations
		r.rotate()
		suite.Eventually(t, r.what+" rolls the Deployment", func() error {
			after := deployment(t, ns, "barbican").Spec.Template.Annotations
			if after[r.annotation] == before[r.annotation] {
				return errorf("%s unchanged", r.annotation)
			}
			for k, v := range before {
				if k != r.annotation && after[k] != v {
					return errorf("%s changed too", k)
				}
			}
			return nil
		})
	}
}

// A rotated secret ID rolls the pods even while the projection is invalid:
// they keep the last good config, not a secret ID the server may expire.
func TestRotationDuringAnInvalidProjection(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	_, srv := toReady(t, ns, newBarbican(ns, "barbican"))
	d0 := deployment(t, ns, "barbican")
	updateStore(t, ns, "vault", func(s *barbicanv1.BarbicanSecretStore) { s.Spec.IsDefault = false })
	waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)

	secretID, err := srv.MintSecretID(context.Background(), "barbican")
	must(t, err)
	roleID := readSecret(t, ns, approleSecret)[barbicanv1.KeyRoleID]
	suite.SetSecret(t, ns, approleSecret, map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID})
	suite.Eventually(t, "the Deployment rolls onto the new secret ID", func() error {
		d := deployment(t, ns, "barbican")
		if d.Spec.Template.Annotations[render.StoreCredsHash] == d0.Spec.Template.Annotations[render.StoreCredsHash] {
			return errorf("%s unchanged", render.StoreCredsHash)
		}
		if config, _ := configOf(t, d); config == "" {
			return errorf("no config mounted")
		}
		return nil
	})
	before, _ := configOf(t, d0)
	if after, _ := configOf(t, deployment(t, ns, "barbican")); after != before {
		t.Errorf("the config moved from %s to %s during an invalid projection", before, after)
	}
}

// The pods roll only onto a pair a store validated. A pair the store has
// not checked yet (its recorded credentialsHash differs) waits, keeping the
// projection; a bad pair, once the store refused it, never reaches the pod
// template.
func TestUncheckedPairWaitsForTheStore(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))
	live := deployment(t, ns, "barbican").Spec.Template.Annotations[render.StoreCredsHash]

	// The test plays a store controller that has not seen the Secret yet. Its
	// status write wakes only the parent; the parent's write wakes the store,
	// whose pass restores the hash at once, so the watch, not a poll, sees
	// the wait.
	seen := suite.Observe(t, cfg, &barbicanv1.BarbicanList{}, ns)
	suite.Eventually(t, "record a hash the Secret does not match", func() error {
		var st barbicanv1.BarbicanSecretStore
		if err := k8s.Get(context.Background(), keyOf(ns, "vault"), &st); err != nil {
			return err
		}
		st.Status.CredentialsHash = "unchecked"
		return k8s.Status().Update(context.Background(), &st)
	})
	seen.WaitSeen(t, "SecretStoresReady waiting for the store's check", func(o client.Object) bool {
		c := condition(o.(*barbicanv1.Barbican), barbicanv1.ConditionSecretStoresReady)
		return c != nil && c.Status == metav1.ConditionFalse && c.Reason == barbicanv1.ReasonWaitingForSecretStores &&
			strings.Contains(c.Message, "has not yet checked the pair")
	})
	if got := deployment(t, ns, "barbican").Spec.Template.Annotations[render.StoreCredsHash]; got != live {
		t.Errorf("the pods rolled while the pair was unchecked: %s %q, was %q", render.StoreCredsHash, got, live)
	}
	waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionTrue, barbicanv1.ReasonAllStoresProjected)

	roleID := readSecret(t, ns, approleSecret)[barbicanv1.KeyRoleID]
	suite.SetSecret(t, ns, approleSecret, map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: "not-a-secret-id"})
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonInvalidCredentials)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)
	if got := deployment(t, ns, "barbican").Spec.Template.Annotations[render.StoreCredsHash]; got != live {
		t.Errorf("the pods rolled onto a refused pair: %s %q, was %q", render.StoreCredsHash, got, live)
	}
}
