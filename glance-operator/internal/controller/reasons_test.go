package controller_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/upgrade"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Every False reason of the Glance's conditions and of a GlanceBackend's is
// reached here, with the events §10 pairs with them. Reached elsewhere:
// ExpandInProgress, MigrateInProgress, UpgradeRollingUpdate,
// ContractInProgress, ExpandFailed and UpgradeTargetChanged (upgrade_test.go),
// NoDefaultBackend (defaults_test.go), WaitingForProjection (projection_test.go),
// DBPurgeJobFailed (dbpurge_test.go), TargetClusterUnavailable
// (targetcluster_test.go). HTTPRouteReady's GatewayAPINotInstalled and
// CapabilityProbeFailed need a cluster without the Gateway API or a failing
// discovery: common/framework/service's unit tests and placement's target-cluster
// suite cover them for every operator.

// SecretsReady's gate reasons in the order the gate reaches them.
func TestSecretsGateReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", false))
	g := newGlance(ns, "glance")
	g.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "ns-store"}
	must(t, k8s.Create(ctx, g))
	got := waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, "SecretStoreNotReady")
	if len(got.Finalizers) != 1 || got.Finalizers[0] != glancev1.Finalizer {
		t.Errorf("finalizers = %v, want the service finalizer", got.Finalizers)
	}

	must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", true))
	waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, "WaitingForDBCredentials")
	suite.Secret(t, ns, "glance-db", map[string]string{"username": "glance"})
	suite.Eventually(t, "the gate names the missing key", func() error {
		c := condition(get(t, ns, g.Name), conditions.TypeSecretsReady)
		if c.Reason != "WaitingForDBCredentials" || !strings.Contains(c.Message, "missing keys: password") {
			return fmt.Errorf("SecretsReady %s: %s", c.Reason, c.Message)
		}
		return nil
	})

	setSecret(t, ns, "glance-db", map[string]string{"username": "glance", "password": "pw"})
	waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, "WaitingForServiceUserCredentials")
	suite.Secret(t, ns, "glance-service-user", map[string]string{"password": "pw"})
	waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionTrue, "SecretsAvailable")
	// No MariaDB in the namespace: the Database step waits for the cluster.
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "ClusterNotReady")
}

// A policy ConfigMap that does not exist fails the Config step: ConfigError
// on SecretsReady, counted under the Config label, and the chain stops.
func TestConfigError(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	twoBackends(t, ns, "glance")
	errorsBefore := testutil.ToFloat64(reconciler.Metrics.Errors.WithLabelValues("Config", conditions.TypeSecretsReady))
	g := createWithMissingPolicy(t, ns)
	if n := testutil.ToFloat64(reconciler.Metrics.Errors.WithLabelValues("Config", conditions.TypeSecretsReady)); n <= errorsBefore {
		t.Errorf("reconcile_errors_total{Config,SecretsReady} = %v, not counted", n)
	}

	// The ConfigMap appears: the Secret-less config renders and the chain goes on.
	must(t, k8s.Create(context.Background(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "missing-policy"},
		Data:       map[string]string{"policy.yaml": `"get_images": "role:reader"` + "\n"},
	}))
	poke(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionTrue, "SecretsAvailable")
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase")
}

// Without a valid backend projection nothing is rendered, yet a policy
// ConfigMap that does not exist still fails the Config step and stops the
// chain: a Glance with no backend at all never gets past it.
func TestConfigErrorWithoutBackends(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := createWithMissingPolicy(t, ns)
	waitCondition(t, ns, g.Name, glancev1.ConditionBackendsReady, metav1.ConditionFalse, glancev1.ReasonNoDefaultBackend)
}

// createWithMissingPolicy creates the Glance "glance" with a policy
// ConfigMap that does not exist and waits for ConfigError naming it, with
// no Database step run.
func createWithMissingPolicy(t *testing.T, ns string) *glancev1.Glance {
	t.Helper()
	g := newGlance(ns, "glance")
	g.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{ConfigMapRef: &serviceapi.LocalObjectRef{Name: "missing-policy"}}
	must(t, k8s.Create(context.Background(), g))
	got := waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, "ConfigError")
	if c := condition(got, conditions.TypeSecretsReady); !strings.Contains(c.Message, "missing-policy") {
		t.Errorf("ConfigError message %q does not name the ConfigMap", c.Message)
	}
	if c := condition(got, conditions.TypeDatabaseReady); c != nil {
		t.Errorf("Database step ran after a config error: %v", c)
	}
	return got
}

// ClusterNotReady, WaitingForDatabase, WaitingForBackends (no default
// backend yet: nothing to migrate with), DBSyncInProgress, DBSyncFailed.
func TestDatabaseReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", false))
	g := newGlance(ns, "glance")
	must(t, k8s.Create(ctx, g))
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "ClusterNotReady")

	must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", true))
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase")
	suite.ProvisionDatabase(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
	waitCondition(t, ns, g.Name, conditions.TypeDeploymentReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
	waitCondition(t, ns, g.Name, glancev1.ConditionBackendsReady, metav1.ConditionFalse, glancev1.ReasonNoDefaultBackend)
	if jobUID(t, ns, "glance-db-sync") != "" {
		t.Error("db-sync ran without a rendered config")
	}

	twoBackends(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")
	// Each failed Job counts once; the backends may turn ready in two passes,
	// and a Job of the one-backend config is replaced (and counted) too.
	failed := float64(finishDBSync(t, ns, g.Name, false))
	got := waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "DBSyncFailed")
	waitEvent(t, ns, g.Name, "DBSyncFailed", corev1.EventTypeWarning)
	suite.Eventually(t, "failed db-sync counted", func() error {
		if n := testutil.ToFloat64(reconciler.Metrics.DBSyncTotal.WithLabelValues(g.Name, ns, "failed")); n != failed {
			return fmt.Errorf("db_sync_total{failed} = %v, want %v (one per failed Job)", n, failed)
		}
		return nil
	})
	if got.Status.InstalledRelease != "" {
		t.Errorf("installedRelease = %q after a failed sync", got.Status.InstalledRelease)
	}
	if n := emissions(eventsOf(t, ns, g.Name, "DatabaseSynced")); n != 0 {
		t.Errorf("DatabaseSynced emitted %d times after a failed sync", n)
	}
}

// An image tag naming another release waits before any migration, without an event.
func TestImageTagReleaseMismatch(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	twoBackends(t, ns, "glance")
	g := newGlance(ns, "glance")
	g.Spec.Image.Tag = "2026.1"
	must(t, k8s.Create(context.Background(), g))
	suite.ProvisionDatabase(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "ImageReleaseMismatch")
	if jobUID(t, ns, "glance-db-sync") != "" {
		t.Error("a db-sync Job ran for an image of another release")
	}
	if n := emissions(eventsOf(t, ns, g.Name, "ImageReleaseMismatch")); n != 0 {
		t.Errorf("ImageReleaseMismatch (tag) emitted %d events, want none", n)
	}
}

// Refused release changes: condition, Warning event, installed release kept,
// no phase started.
func TestReleaseGateRefusals(t *testing.T) {
	for _, tc := range testenv.ReleaseRefusals {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			ns := suite.Namespace(t)
			inputs(t, ns)
			g := newGlance(ns, "glance")
			if tc.Digest {
				g.Spec.Image.Tag, g.Spec.Image.Digest = "", testenv.Digest
			}
			ready(t, ns, g)
			update(t, ns, "glance", func(g *glancev1.Glance) { tc.Mutate(&g.Spec.ServiceSpec) })
			got := waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, tc.Reason)
			if got.Status.InstalledRelease != "2025.2" || got.Status.TargetRelease != "" || got.Status.UpgradePhase != "" {
				t.Errorf("installed %q target %q phase %q after a refusal", got.Status.InstalledRelease, got.Status.TargetRelease, got.Status.UpgradePhase)
			}
			waitEvent(t, ns, "glance", tc.Reason, corev1.EventTypeWarning)
			if jobUID(t, ns, "glance-db-expand") != "" {
				t.Error("an expand Job ran for a refused release change")
			}
		})
	}
}

// An installed release that does not parse refuses every pass.
func TestVersionParseError(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	suite.Eventually(t, "corrupt installedRelease", func() error {
		g := get(t, ns, "glance")
		g.Status.InstalledRelease = "latest"
		return k8s.Status().Update(context.Background(), g)
	})
	poke(t, ns, "glance")
	waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, "VersionParseError")
	waitEvent(t, ns, "glance", "VersionParseError", corev1.EventTypeWarning)
}

// MigrateFailed and ContractFailed: the failing phase holds, with a Warning,
// and nothing is promoted.
func TestUpgradePhaseFailures(t *testing.T) {
	for _, phase := range []string{"migrate", "contract"} {
		t.Run(phase, func(t *testing.T) {
			t.Parallel()
			ns := suite.Namespace(t)
			inputs(t, ns)
			ready(t, ns, newGlance(ns, "glance"))
			gen := deployment(t, ns, "glance").Generation
			bump(t, ns, "glance", "2026.1")
			waitPhase(t, ns, "glance", glancev1.PhaseExpanding, upgrade.ReasonExpandInProgress)
			finishJobOf(t, ns, "glance-db-expand", "2026.1", true)
			waitPhase(t, ns, "glance", glancev1.PhaseMigrating, upgrade.ReasonMigrateInProgress)
			reason, wantPhase := upgrade.ReasonMigrateFailed, glancev1.PhaseMigrating
			if phase == "migrate" {
				finishJobOf(t, ns, "glance-db-migrate", "2026.1", false)
			} else {
				finishJobOf(t, ns, "glance-db-migrate", "2026.1", true)
				waitPhase(t, ns, "glance", glancev1.PhaseRollingUpdate, upgrade.ReasonUpgradeRollingUpdate)
				suite.RollOutAfter(t, ns, "glance", gen)
				waitPhase(t, ns, "glance", glancev1.PhaseContracting, upgrade.ReasonContractInProgress)
				finishJobOf(t, ns, "glance-db-contract", "2026.1", false)
				reason, wantPhase = upgrade.ReasonContractFailed, glancev1.PhaseContracting
			}
			got := waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, reason)
			if got.Status.UpgradePhase != wantPhase || got.Status.InstalledRelease != "2025.2" || got.Status.TargetRelease != "2026.1" {
				t.Errorf("after %s: phase %q installed %q target %q", reason, got.Status.UpgradePhase, got.Status.InstalledRelease, got.Status.TargetRelease)
			}
			waitEvent(t, ns, "glance", reason, corev1.EventTypeWarning)
			if n := emissions(eventsOf(t, ns, "glance", upgrade.EventUpgradeComplete)); n != 0 {
				t.Errorf("UpgradeComplete emitted after %s", reason)
			}
		})
	}
}

// WaitingForDeployment and EndpointNotReady before the rollout (the parallel
// group runs once the Deployment exists), then every probe outcome.
func TestDeploymentAndHealthReasons(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	twoBackends(t, ns, "glance")
	g := newGlance(ns, "glance")
	must(t, k8s.Create(context.Background(), g))
	suite.ProvisionDatabase(t, ns, g.Name)
	finishDBSync(t, ns, g.Name, true)
	waitCondition(t, ns, g.Name, conditions.TypeDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "EndpointNotReady")
	suite.RollOut(t, ns, g.Name)
	// No probe target registered: nothing listens on the port.
	waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "ConnectionFailed")

	// A failed probe is retried every 10 s; each poke starts the next pass at once.
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusServiceUnavailable, 0))
	poke(t, ns, g.Name)
	got := waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "APIUnhealthy")
	if c := condition(got, glancev1.ConditionGlanceAPIReady); !strings.Contains(c.Message, "503") {
		t.Errorf("APIUnhealthy message %q lacks the status code", c.Message)
	}
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 3*time.Second))
	poke(t, ns, g.Name)
	waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "HealthCheckTimeout")
	api.Set(ns, g.Name, "http://glance-api.invalid:9292/")
	poke(t, ns, g.Name)
	waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "EndpointNotReady")
	api.Set(ns, g.Name, "ftp://127.0.0.1/")
	poke(t, ns, g.Name)
	waitCondition(t, ns, g.Name, glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "HealthCheckFailed")
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	poke(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
}

// The route reflects the Gateway's Accepted condition both ways, and
// carries the 4h request timeout a long image transfer needs.
func TestHTTPRouteNotAccepted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := newGlance(ns, "glance")
	g.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "glance.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(ctx, g))
	suite.ProvisionDatabase(t, ns, g.Name)
	finishDBSync(t, ns, g.Name, true)
	suite.RollOut(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	key := client.ObjectKey{Namespace: ns, Name: g.Name}
	suite.Eventually(t, "route refused", func() error { return testenv.RouteAccepted(ctx, k8s, key, false) })
	waitCondition(t, ns, g.Name, conditions.TypeHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	suite.Eventually(t, "route accepted", func() error { return testenv.RouteAccepted(ctx, k8s, key, true) })
	got := waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if got.Status.Endpoint != "https://glance.example.org/" {
		t.Errorf("endpoint = %q", got.Status.Endpoint)
	}
	var route gatewayv1.HTTPRoute
	must(t, k8s.Get(ctx, key, &route))
	if tm := route.Spec.Rules[0].Timeouts; tm == nil || tm.Request == nil || *tm.Request != "4h" {
		t.Errorf("route timeouts = %+v, want request 4h", tm)
	}
	suite.Eventually(t, "route refused again", func() error { return testenv.RouteAccepted(ctx, k8s, key, false) })
	waitCondition(t, ns, g.Name, conditions.TypeHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
}

// A GlanceBackend's own reasons: WaitingForParent while its Glance does not
// exist, WaitingForCredentials while its Secret does not, and the Glance's
// BackendsReady=WaitingForBackends for a pending sibling, which still lets
// the ready default project.
func TestBackendReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "orphan", "nobody", "s3-a", true)))
	b := waitBackend(t, ns, "orphan", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForParent)
	if c := backendCondition(b, glancev1.ConditionConfigProjected); c == nil || c.Reason != glancev1.ReasonWaitingForProjection {
		t.Errorf("ConfigProjected of an orphan = %+v", c)
	}
	waitBackend(t, ns, "orphan", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")

	ready(t, ns, newGlance(ns, "glance"))
	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "cold", "glance", "s3-c", false)))
	b = waitBackend(t, ns, "cold", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForCredentials)
	if c := backendCondition(b, glancev1.ConditionCredentialsReady); !strings.Contains(c.Message, "s3-c") {
		t.Errorf("WaitingForCredentials message %q does not name the Secret", c.Message)
	}
	got := waitCondition(t, ns, "glance", glancev1.ConditionBackendsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
	if c := condition(got, glancev1.ConditionBackendsReady); !strings.Contains(c.Message, "waiting for credentials: cold") ||
		!strings.Contains(c.Message, "projected: archive, fast") {
		t.Errorf("BackendsReady message %q", c.Message)
	}
	// The pending backend changes nothing the API runs with.
	if gotEvents := emissions(eventsOf(t, ns, "glance", "GlanceBackendSkipped")); gotEvents != 0 {
		t.Errorf("a pending backend was reported skipped (%d events)", gotEvents)
	}

	suite.Secret(t, ns, "s3-c", map[string]string{glancev1.S3AccessKeyID: "AKIA", glancev1.S3SecretAccessKey: "cold-secret"})
	waitBackend(t, ns, "cold", glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
	waitCondition(t, ns, "glance", glancev1.ConditionBackendsReady, metav1.ConditionTrue, glancev1.ReasonAllBackendsProjected)
}
