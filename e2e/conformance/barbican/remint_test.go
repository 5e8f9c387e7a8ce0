package barbican_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// The secret ID the operator re-mints reaches barbican-api and works there:
// proactively, before two thirds of a short secret_id_ttl, and reactively,
// for a secret ID older than ten minutes that the server no longer knows.
// Each time the Deployment's digest annotation changes, and a barbican-api
// started from the new Deployment stores and reads a secret in the
// instance's KV mount.
func TestReMintedSecretIDServes(t *testing.T) {
	release := env.Releases[len(env.Releases)-1]
	t.Run("proactive", func(t *testing.T) {
		const ttl = time.Minute
		s := newSite(t, "remint-proactive", release, ttl, nil)
		a := s.upToReady()
		first := s.approle()
		s.storesThrough(a)
		digest := secretIDDigest(env.Deployment(t, s.key(), "").Spec.Template.Annotations)
		var again *corev1.Secret
		poll.Until(t, harness.WaitLong, func() error {
			if again = s.approle(); string(again.Data[barbicanv1.KeySecretID]) == string(first.Data[barbicanv1.KeySecretID]) {
				return fmt.Errorf("vault-approle still holds the first secret ID")
			}
			return nil
		})
		minted, err := time.Parse(time.RFC3339, again.Annotations[barbicanv1.AnnotationMintedAt])
		poll.Must(t, err)
		firstMinted, err := time.Parse(time.RFC3339, first.Annotations[barbicanv1.AnnotationMintedAt])
		poll.Must(t, err)
		if age := minted.Sub(firstMinted); age >= ttl {
			t.Fatalf("re-minted %s after the first mint: not before the %s TTL ran out", age, ttl)
		}
		// The superseded secret ID is not revoked: pods not yet rolled keep
		// logging in with it until its TTL.
		if err := s.login(first); err != nil {
			t.Errorf("the superseded secret ID, %s before its TTL ends, was refused: %v", time.Until(firstMinted.Add(ttl)).Round(time.Second), err)
		}
		b := s.startAPI(digest)
		s.storesThrough(b)
	})
	t.Run("reactive", func(t *testing.T) {
		s := newSite(t, "remint-reactive", release, 0, nil)
		a := s.upToReady()
		s.storesThrough(a)
		held := s.approle()
		digest := secretIDDigest(env.Deployment(t, s.key(), "").Spec.Template.Annotations)
		// Older than the ten minutes below which a refused secret ID is
		// reported instead of replaced, then gone from the server.
		poll.Update(t, env.K8s, held, harness.WaitLong, func() {
			held.Annotations[barbicanv1.AnnotationMintedAt] = time.Now().Add(-11 * time.Minute).UTC().Format(time.RFC3339)
		})
		poll.Must(t, s.vault.DestroySecretID(t.Context(), openbao.AppRole, string(held.Data[barbicanv1.KeySecretID])))
		// Any change of the store wakes its controller at once.
		var st barbicanv1.BarbicanSecretStore
		poll.Must(t, env.K8s.Get(t.Context(), client.ObjectKey{Namespace: s.ns, Name: storeName}, &st))
		poll.Update(t, env.K8s, &st, harness.WaitLong, func() {
			if st.Annotations == nil {
				st.Annotations = map[string]string{}
			}
			st.Annotations["conformance.c5c3.io/wake"] = "1"
		})
		b := s.startAPI(digest)
		if again := s.approle(); string(again.Data[barbicanv1.KeySecretID]) == string(held.Data[barbicanv1.KeySecretID]) {
			t.Fatal("the Deployment rolled but Secret vault-approle holds the destroyed secret ID")
		}
		s.storesThrough(b)
	})
}

// login logs in to the instance with the AppRole pair of sec.
func (s *site) login(sec *corev1.Secret) error {
	var out struct {
		Auth struct {
			ClientToken string `json:"client_token"`
		} `json:"auth"`
	}
	if err := s.vault.CallAs(s.t.Context(), "", http.MethodPost, "auth/approle/login", map[string]string{
		"role_id": string(sec.Data[barbicanv1.KeyRoleID]), "secret_id": string(sec.Data[barbicanv1.KeySecretID]),
	}, &out); err != nil {
		return err
	}
	if out.Auth.ClientToken == "" {
		return fmt.Errorf("the login returned no token")
	}
	return nil
}

// approle reads the store's minted pair.
func (s *site) approle() *corev1.Secret {
	s.t.Helper()
	var sec corev1.Secret
	poll.Must(s.t, env.K8s.Get(s.t.Context(), client.ObjectKey{Namespace: s.ns, Name: storeName + "-approle"}, &sec))
	return &sec
}

// storesThrough stores a secret through a and reads it back.
func (s *site) storesThrough(a *harness.API) {
	s.t.Helper()
	token, err := env.Keystone.AdminToken()
	poll.Must(s.t, err)
	api := keyManager{harness.Client{T: s.t, URL: a.URL, Token: token}}
	payload := randomPayload(s.t)
	if got := api.payload(api.store(fmt.Sprintf("remint-%d", time.Now().UnixNano()), payload)); got != payload {
		s.t.Fatalf("payload %q, want %q", got, payload)
	}
}
