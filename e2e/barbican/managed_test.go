package barbican_test

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/managedbao"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// TestManagedStore: a managed store on an OpenBaoCluster, as a user
// installs one: the chart's TokenRequest Role in the namespace
// (rbac.secretStoreNamespaces) lets the operator log in with a token of
// <instance>-provisioner against the server's Kubernetes auth, which reviews
// it against this control plane; the operator mints the AppRole secret ID
// and barbican-api (real processes, reaching the instance by its Service
// name) serves with it. With a 60 s secret_id_ttl the secret ID is re-minted
// before the TTL runs out: the Deployment rolls and the new pods serve. A
// secret ID older than ten minutes that the server no longer knows is
// replaced at the next pass. The re-mint metric counts both triggers.
func TestManagedStore(t *testing.T) {
	s, srv := newManagedSite(t, "2026.1", time.Minute)
	s.storeCondition("vault", barbicanv1.ConditionProvisioningReady, metav1.ConditionTrue, barbicanv1.ReasonProvisioned)
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	s.storeCondition("vault", conditions.TypeReady, metav1.ConditionTrue, "")
	s.serves()

	// Proactive: before two thirds of the 60 s TTL.
	first := s.approle()
	digest := s.rolledFrom(s.rolledFrom(""))
	again := s.approle()
	if string(again.Data[barbicanv1.KeySecretID]) == string(first.Data[barbicanv1.KeySecretID]) {
		t.Fatal("the Deployment rolled but vault-approle holds the first secret ID")
	}
	s.serves()
	s.remints("proactive")

	// Reactive: secret IDs without a TTL from now on; once one is held, it
	// ages past ten minutes and is destroyed on the server.
	poll.Must(t, srv.WriteAppRole(s.Ctx, openbao.AppRole, openbao.AppRoleOptions{Policies: []string{openbao.BarbicanPolicy}}))
	var held *corev1.Secret
	poll.Until(t, waitLong, func() error {
		if held = s.approle(); held.Annotations[barbicanv1.AnnotationTTLSeconds] != "0" {
			return fmt.Errorf("vault-approle holds a secret ID with TTL %s s", held.Annotations[barbicanv1.AnnotationTTLSeconds])
		}
		return nil
	})
	digest = s.rolledFrom(digest)
	poll.Update(t, env.K8s, held, waitLong, func() {
		held.Annotations[barbicanv1.AnnotationMintedAt] = time.Now().Add(-11 * time.Minute).UTC().Format(time.RFC3339)
	})
	poll.Must(t, srv.DestroySecretID(s.Ctx, openbao.AppRole, string(held.Data[barbicanv1.KeySecretID])))
	s.wakeStore("vault")
	s.rolledFrom(digest)
	if string(s.approle().Data[barbicanv1.KeySecretID]) == string(held.Data[barbicanv1.KeySecretID]) {
		t.Fatal("the Deployment rolled but vault-approle holds the destroyed secret ID")
	}
	s.serves()
	s.remints("reactive")
}

// newManagedSite creates the inputs, the managed instance (secret IDs
// living ttl), the default store "vault" on it and a Barbican on release as
// a user writes them. The test's namespace must be one of
// managedNamespaces: the chart grants TokenRequest there.
func newManagedSite(t *testing.T, release string, ttl time.Duration) (*site, *openbao.Server) {
	t.Helper()
	s := &site{Site: suite.NewSite(t, env.K8s, env.K8s, "barbican", "b")}
	if !slices.Contains(managedNamespaces, s.NS) {
		t.Fatalf("the site's namespace %s is not one the chart grants TokenRequest in (%v)", s.NS, managedNamespaces)
	}
	s.vault = managedbao.Start(t, env.K8s, env.Mgmt.Config, s.NS, managedInstance, managedAddr, ttl)
	poll.Must(t, env.K8s.Create(s.Ctx, managedbao.Store(s.NS, "vault", s.Name, managedInstance)))
	poll.Must(t, env.K8s.Create(s.Ctx, &barbicanv1.Barbican{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name},
		Spec:       barbicanv1.BarbicanSpec{ServiceSpec: s.Spec(release, "", env.DB.Port)},
	}))
	return s, s.vault
}

// approle reads the store's minted pair.
func (s *site) approle() *corev1.Secret {
	s.T.Helper()
	var sec corev1.Secret
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: "vault-approle"}, &sec))
	return &sec
}

// rolledFrom waits until the Deployment's pod template carries a secret-ID
// digest other than from (any, when from is "") and has rolled out: every
// replica updated and ready. It returns the digest.
func (s *site) rolledFrom(from string) string {
	s.T.Helper()
	var digest string
	poll.Until(s.T, waitLong, func() error {
		var d appsv1.Deployment
		if err := env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &d); err != nil {
			return err
		}
		digest = d.Spec.Template.Annotations[barbican.StoreCredsHash]
		want := *d.Spec.Replicas
		if digest == "" || digest == from {
			return fmt.Errorf("the Deployment's secret ID digest is still %q", digest)
		}
		if d.Status.ObservedGeneration != d.Generation || d.Status.UpdatedReplicas != want || d.Status.ReadyReplicas != want || d.Status.Replicas != want {
			return fmt.Errorf("Deployment rolling out: %d/%d updated, %d ready, %d in all", d.Status.UpdatedReplicas, want, d.Status.ReadyReplicas, d.Status.Replicas)
		}
		return nil
	})
	return digest
}

// wakeStore changes an annotation of the store: any change wakes its controller.
func (s *site) wakeStore(name string) {
	s.T.Helper()
	st := &barbicanv1.BarbicanSecretStore{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: name}}
	poll.Update(s.T, env.K8s, st, waitLong, func() {
		if st.Annotations == nil {
			st.Annotations = map[string]string{}
		}
		st.Annotations["e2e.c5c3.io/wake"] = strconv.FormatInt(time.Now().UnixNano(), 10)
	})
}

// remints waits until the operator's re-mint metric counted trigger for
// the store.
func (s *site) remints(trigger string) {
	s.T.Helper()
	series := regexp.MustCompile(`barbican_operator_secretstore_remints_total\{[^}]*namespace="` + s.NS + `"[^}]*trigger="` + trigger + `"[^}]*\} ([0-9.e+]+)`)
	poll.Until(s.T, waitLong, func() error {
		text, err := env.Op.Metrics()
		if err != nil {
			return err
		}
		if m := series.FindStringSubmatch(text); m == nil || m[1] == "0" {
			return fmt.Errorf("barbican_operator_secretstore_remints_total{trigger=%q} not counted for %s yet", trigger, s.NS)
		}
		return nil
	})
}
