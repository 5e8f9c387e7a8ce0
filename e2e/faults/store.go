package faults

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// The CR's ESO store turns not Ready (its provider can no longer be
// reached): SecretsReady=False/SecretStoreNotReady and Ready=False, while
// everything already running stays: the Deployment is not rolled, its pods
// keep running, the Service and the config artefact stay. Once the store is
// Ready again the CR converges without a manual step, still on the same
// pods.
func (s Subject[T, P]) storeOutage(t *testing.T) {
	site, key := s.readySite(t)
	store := suite.SecretStore(site.NS, "faults-store")
	poll.Must(t, s.Env.K8s.Create(t.Context(), store))
	waitStore(t, s.Env.K8s, store, true)
	obj := s.get(t, key)
	poll.Update(t, s.Env.K8s, obj, Wait, func() {
		serviceSpec(obj).SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: store.GetName()}
	})
	s.ready(t, key)

	running := Observe(t, site.C, key)

	poll.Update(t, s.Env.K8s, store, Wait, func() { suite.SetStoreProvider(store, suite.UnreachableProvider()) })
	waitStore(t, s.Env.K8s, store, false)
	suite.WaitCondition(t, s.Env.K8s, key, s.Conditions, conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonSecretStoreNotReady, Wait)
	suite.WaitCondition(t, s.Env.K8s, key, s.Conditions, conditions.TypeReady, metav1.ConditionFalse, "", Wait)
	running.Kept(t, "store not Ready")

	poll.Update(t, s.Env.K8s, store, Wait, func() {
		suite.SetStoreProvider(store, map[string]any{"fake": map[string]any{"data": []any{}}})
	})
	waitStore(t, s.Env.K8s, store, true)
	s.ready(t, key)
	running.Kept(t, "store Ready again")
}

func serviceSpec(obj any) *serviceapi.ServiceSpec {
	return obj.(interface {
		ServiceSpec() *serviceapi.ServiceSpec
	}).ServiceSpec()
}

// waitStore waits until ESO reports the store Ready (or not).
func waitStore(t *testing.T, c client.Client, store *unstructured.Unstructured, ready bool) {
	t.Helper()
	poll.Until(t, Wait, func() error {
		if err := c.Get(t.Context(), client.ObjectKeyFromObject(store), store); err != nil {
			return err
		}
		if suite.StoreReady(store) != ready {
			return fmt.Errorf("store %s: want Ready=%t, have %v", store.GetName(), ready, store.Object["status"])
		}
		return nil
	})
}
