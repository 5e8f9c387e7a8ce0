package controller_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Each False reason of SecretsReady, in the order the gate reaches them.
func TestSecretsGateReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", false))
	p := newPlacement(ns, "placement")
	p.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "ns-store"}
	must(t, k8s.Create(ctx, p))
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "SecretStoreNotReady")
	if got := get(t, ns, p.Name); len(got.Finalizers) != 1 {
		t.Errorf("finalizers = %v, want the service finalizer", got.Finalizers)
	}

	must(t, testenv.SecretStore(ctx, k8s, ns, "ns-store", true))
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "WaitingForDBCredentials")
	secret(t, ns, "placement-db", map[string]string{"username": "placement"})
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "WaitingForDBCredentials")

	must(t, k8s.Delete(ctx, secretObj(ns, "placement-db")))
	secret(t, ns, "placement-db", map[string]string{"username": "placement", "password": "pw"})
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "WaitingForServiceUserCredentials")
	secret(t, ns, "placement-service-user", map[string]string{"password": "pw"})
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionTrue, "SecretsAvailable")
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "ClusterNotReady")
}

func TestConfigError(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{ConfigMapRef: &serviceapi.LocalObjectRef{Name: "missing-policy"}}
	must(t, k8s.Create(context.Background(), p))
	got := waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "ConfigError")
	if c := findCondition(got, placementv1.ConditionDatabaseReady); c != nil {
		t.Errorf("Database step ran after a config error: %v", c)
	}
}

// ClusterNotReady, WaitingForDatabase, DBSyncInProgress, DBSyncFailed in turn.
func TestDatabaseReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	eventually(t, "default store Ready", func() error {
		return testenv.SecretStore(ctx, k8s, "", serviceapi.DefaultSecretStoreName, true)
	})
	secret(t, ns, "placement-db", map[string]string{"username": "placement", "password": "db"})
	secret(t, ns, "placement-service-user", map[string]string{"password": "ks"})
	must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", false))
	p := newPlacement(ns, "placement")
	must(t, k8s.Create(ctx, p))
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "ClusterNotReady")

	must(t, testenv.MariaDB(ctx, k8s, ns, "mariadb", true))
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase")
	provisionDatabase(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")

	finishJob(t, ns, p.Name, false)
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "DBSyncFailed")
	eventually(t, "DBSyncFailed event and failed metric", func() error {
		if eventReasons(t, ns, p.Name)["DBSyncFailed"] == 0 {
			return errorf("no DBSyncFailed event")
		}
		if n := testutil.ToFloat64(reconciler.Metrics.DBSyncTotal.WithLabelValues(p.Name, ns, "failed")); n != 1 {
			return errorf("db_sync_total failed = %v, want 1", n)
		}
		return nil
	})
	if got := get(t, ns, p.Name); got.Status.InstalledRelease != "" {
		t.Errorf("installedRelease = %q after a failed sync", got.Status.InstalledRelease)
	}
}

func TestImageTagReleaseMismatch(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.Image.Tag = "2026.1"
	must(t, k8s.Create(context.Background(), p))
	// The seed provisions the schema first, then gates the release.
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase")
	provisionDatabase(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "ImageReleaseMismatch")
	if jobUID(t, ns, p.Name) != "" {
		t.Errorf("a db-sync Job ran for an image of another release")
	}
}

// WaitingForDeployment and EndpointNotReady before the rollout (the parallel
// group runs while the Deployment is not ready), then the probe reasons.
func TestDeploymentAndHealthReasons(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	must(t, k8s.Create(ctx, p))
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
	waitCondition(t, ns, p.Name, placementv1.ConditionDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	// The parallel group runs once the Deployment exists, ready or not.
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "EndpointNotReady")
	rollOut(t, ns, p.Name)
	// No probe target registered: nothing listens on the port.
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "ConnectionFailed")
	if v := testutil.ToFloat64(reconciler.Metrics.Probes.WithLabelValues("failed", "ConnectionFailed")); v < 1 {
		t.Errorf("health_probes_total{failed,ConnectionFailed} = %v after a refused probe, want at least 1", v)
	}
	if v := testutil.ToFloat64(reconciler.Metrics.Ready.WithLabelValues(p.Name, ns)); v != 0 {
		t.Errorf("ready = %v while the API is down, want 0", v)
	}

	api.Set(ns, p.Name, FakeAPI(t, 503, 0))
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "APIUnhealthy")
	api.Set(ns, p.Name, FakeAPI(t, 200, 3*time.Second))
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "HealthCheckTimeout")
	api.Set(ns, p.Name, "http://placement-api.invalid:8778/")
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "EndpointNotReady")
	api.Set(ns, p.Name, "ftp://127.0.0.1/")
	waitCondition(t, ns, p.Name, placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "HealthCheckFailed")
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
}
