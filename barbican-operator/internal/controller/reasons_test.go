package controller_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// digest pins an image by content.

// want is one condition a scenario step waits for.
type want struct {
	condType string
	status   metav1.ConditionStatus
	reason   string
}

// walk runs each step's change (nil: none) and waits for its conditions in order.
func walk(t *testing.T, ns, name string, steps []struct {
	do    func()
	conds []want
}) {
	t.Helper()
	for _, s := range steps {
		if s.do != nil {
			s.do()
		}
		for _, c := range s.conds {
			waitCondition(t, ns, name, c.condType, c.status, c.reason)
		}
	}
}

// The shared steps' False reasons as a Barbican reaches them, in the order
// an install meets them: the secret store and each credential Secret, the
// MariaDB cluster and the schema CRs, a failed and a passing db-sync, the
// rollout, and each way the health probe can fail.
func TestSharedStepReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	srv := bao(t, ns)
	brownfield(t, ns, "barbican", srv)
	must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", false))
	b := newBarbican(ns, "barbican")
	b.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "ns-store"}
	must(t, k8s.Create(ctx, b))
	probe := func(url string) func() { return func() { api.Set(ns, "barbican", url); poke(t, ns, "barbican") } }
	walk(t, ns, "barbican", []struct {
		do    func()
		conds []want
	}{
		{nil, []want{{conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonSecretStoreNotReady}}},
		{func() { must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", true)) },
			[]want{{conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonWaitingForDBCredentials}}},
		{func() {
			suite.Secret(t, ns, "barbican-db", map[string]string{"username": "barbican", "password": "pw"})
		},
			[]want{{conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonWaitingForServiceUserCredentials}}},
		{func() { suite.Secret(t, ns, "barbican-service-user", map[string]string{"password": "pw"}) },
			[]want{{conditions.TypeSecretsReady, metav1.ConditionTrue, "SecretsAvailable"},
				{conditions.TypeDatabaseReady, metav1.ConditionFalse, "ClusterNotReady"}}},
		{func() { must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", true)) },
			[]want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase"}}},
		{func() { suite.ProvisionDatabase(t, ns, "barbican") },
			[]want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonDBSyncInProgress}}},
		{func() { suite.FinishJob(t, ns, "barbican-db-sync", false) },
			[]want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonDBSyncFailed}}},
		{func() {
			// A fixed image re-runs the Job.
			failed := suite.JobUID(t, ns, "barbican-db-sync")
			update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.Image.Tag = "2025.2-fix1" })
			suite.FinishNewJob(t, ns, "barbican-db-sync", failed, true)
		}, []want{{conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced},
			{conditions.TypeDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment"},
			{barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "EndpointNotReady"}}},
		{func() { suite.RollOut(t, ns, "barbican") },
			[]want{{barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "ConnectionFailed"}}},
		{probe(testenv.FakeAPI(t, http.StatusServiceUnavailable, 0)),
			[]want{{barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "APIUnhealthy"}}},
		{probe(testenv.FakeAPI(t, http.StatusOK, 3*time.Second)),
			[]want{{barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "HealthCheckTimeout"}}},
		{probe("ftp://127.0.0.1/"),
			[]want{{barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "HealthCheckFailed"}}},
		{probe(testenv.FakeAPI(t, http.StatusOK, 0)),
			[]want{{conditions.TypeReady, metav1.ConditionTrue, "AllReady"}}},
	})
}

// Every refusal of the release gate and the tag check, from a synced
// Barbican: each reports DatabaseReady with the shared reason.
func TestReleaseGateReasons(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))
	release := func(rel, tag string) func() {
		return func() {
			update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease, b.Spec.Image.Tag = rel, tag })
		}
	}
	walk(t, ns, "barbican", []struct {
		do    func()
		conds []want
	}{
		{release("2025.1", "2025.1"), []want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonDowngradeNotSupported}}},
		{release("2026.1", "2025.2"), []want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonImageReleaseMismatch}}},
		{release("2025.2", "2025.2"), []want{{conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced}}},
		// A digest-pinned image names no release: a bump that keeps the
		// digest that ran the installed migration is refused all the same.
		{func() {
			synced := suite.JobUID(t, ns, "barbican-db-sync")
			update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.Image.Tag, b.Spec.Image.Digest = "", testenv.Digest })
			suite.FinishNewJob(t, ns, "barbican-db-sync", synced, true)
		}, []want{{conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced}}},
		{func() { update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease = "2026.1" }) },
			[]want{{conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonImageReleaseMismatch}}},
	})
	// A corrupt installed release cannot be compared with any spec.
	update(t, ns, "barbican", func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease = "2025.2" })
	waitCondition(t, ns, "barbican", conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced)
	suite.Eventually(t, "corrupt installedRelease", func() error {
		b := get(t, ns, "barbican")
		b.Status.InstalledRelease = "zed"
		return k8s.Status().Update(context.Background(), b)
	})
	poke(t, ns, "barbican")
	waitCondition(t, ns, "barbican", conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonVersionParseError)
	waitCondition(t, ns, "barbican", barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanBlocked)
}
