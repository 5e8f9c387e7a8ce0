package barbican_test

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestCredentialRotation: a new service-user password rolls the API
// Deployment exactly once; the new barbican-api serves and the Barbican is
// Ready again.
func TestCredentialRotation(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.RotationRollsOnce(t, s.Site, waitLong, s.ready)
}

// TestDeletionCleansUp: deleting the Barbican drops its schema and account
// on the server (the MariaDB CRs go first), garbage collection removes the
// children (the db-clean CronJob and the config Secrets too) and its metric
// series disappear. The store, which it does not own, stays and waits for
// a parent (barbican-api.md §6).
func TestDeletionCleansUp(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.DeletionCleansUp(t, s.Site, env.K8s, env.DB, suite.Deletion{
		CR: s.barbican(), Kind: "Barbican", Series: "barbican", Metrics: env.Op.Metrics,
		Children: []client.Object{&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-clean"}}},
	}, waitLong)
	s.storeCondition("vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForParent)
}

// ready waits until the Barbican is Ready.
func (s *site) ready() {
	s.T.Helper()
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
}
