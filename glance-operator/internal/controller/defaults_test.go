package controller_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// setDefault sets spec.isDefault of a backend.
func setDefault(t *testing.T, ns, name string, isDefault bool) {
	t.Helper()
	updateBackend(t, ns, name, func(b *glancev1.GlanceBackend) { b.Spec.IsDefault = isDefault })
}

// waitBackendsMessage waits until BackendsReady has reason and a message containing want.
func waitBackendsMessage(t *testing.T, ns, name, reason, want string) {
	t.Helper()
	suite.Eventually(t, "BackendsReady "+reason+": "+want, func() error {
		g := get(t, ns, name)
		c := condition(g, glancev1.ConditionBackendsReady)
		if c == nil || c.Reason != reason || !strings.Contains(c.Message, want) || c.ObservedGeneration != g.Generation {
			return fmt.Errorf("BackendsReady = %+v", c)
		}
		return nil
	})
}

// Zero and two credential-ready defaults on a first install: nothing is
// rendered, the database and the Deployment wait for a default, and one
// default lets the install go on.
func TestNoDefaultBackendOnFirstInstall(t *testing.T) {
	cases := []struct {
		name        string
		isDefault   bool
		message     string
		fix         string // the backend whose isDefault flips to leave one default
		wantDefault string
	}{
		{"zero", false, "none of the 2 attached GlanceBackends", "fast", "default fast"},
		{"two", true, "2 credential-ready defaults (archive, fast)", "archive", "default fast"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			ns := suite.Namespace(t)
			inputs(t, ns)
			// The gate holds the Glance until both backends are credential-ready,
			// so no pass sees one default while the other is still pending.
			must(t, k8s.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance-service-user"}}))
			must(t, k8s.Create(ctx, fixture.S3Backend(ns, "fast", "glance", "s3-a", tc.isDefault)))
			must(t, k8s.Create(ctx, fixture.S3Backend(ns, "archive", "glance", "s3-b", tc.isDefault)))
			g := newGlance(ns, "glance")
			must(t, k8s.Create(ctx, g))
			waitBackend(t, ns, "fast", glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
			waitBackend(t, ns, "archive", glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
			waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, "WaitingForServiceUserCredentials")
			suite.Secret(t, ns, "glance-service-user", map[string]string{"password": "ks-secret"})

			waitBackendsMessage(t, ns, g.Name, glancev1.ReasonNoDefaultBackend, tc.message)
			waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "WaitingForDatabase")
			suite.ProvisionDatabase(t, ns, g.Name)
			waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
			waitCondition(t, ns, g.Name, conditions.TypeDeploymentReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
			nothingRendered(t, ns)

			setDefault(t, ns, tc.fix, !tc.isDefault)
			waitBackendsMessage(t, ns, g.Name, glancev1.ReasonAllBackendsProjected, tc.wantDefault)
			waitCondition(t, ns, g.Name, conditions.TypeDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")
			if cms := artefacts(t, ns, "glance-config", &corev1.ConfigMapList{}); len(cms) != 1 {
				t.Errorf("config generations %v, want one", cms)
			}
		})
	}
}

// nothingRendered fails if any config artefact, migration Job or Deployment exists.
func nothingRendered(t *testing.T, ns string) {
	t.Helper()
	if cms := artefacts(t, ns, "glance-config", &corev1.ConfigMapList{}); len(cms) != 0 {
		t.Errorf("config ConfigMaps %v rendered from an invalid projection", cms)
	}
	if secrets := artefacts(t, ns, "glance-backends", &corev1.SecretList{}); len(secrets) != 0 {
		t.Errorf("backends Secrets %v rendered from an invalid projection", secrets)
	}
	if jobUID(t, ns, "glance-db-sync") != "" {
		t.Error("db-sync ran without a default backend")
	}
	if exists(t, &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance-db-purge"}}) {
		t.Error("db-purge CronJob projected without a config")
	}
}

// An invalid projection (two defaults, then none) on a running Glance
// keeps the last good one: the Deployment and the purge CronJob keep
// mounting the same ConfigMap and Secret, nothing is re-rendered and no
// migration re-runs; a valid projection again returns to Ready unchanged.
func TestInvalidDefaultsKeepLastGood(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	before := deployment(t, ns, "glance")
	config, backends := mounts(before)
	job := jobUID(t, ns, "glance-db-sync")
	cms, secrets := artefacts(t, ns, "glance-config", &corev1.ConfigMapList{}), artefacts(t, ns, "glance-backends", &corev1.SecretList{})

	check := func(state string) {
		t.Helper()
		d := deployment(t, ns, "glance")
		if c, b := mounts(d); c != config || b != backends {
			t.Errorf("%s: Deployment mounts %s / %s, want the last good %s / %s", state, c, b, config, backends)
		}
		if d.Generation != before.Generation {
			t.Errorf("%s: Deployment rewritten (generation %d -> %d)", state, before.Generation, d.Generation)
		}
		var cj batchv1.CronJob
		must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "glance-db-purge"}, &cj))
		if v := cj.Spec.JobTemplate.Spec.Template.Spec.Volumes; len(v) == 0 || v[0].ConfigMap == nil || v[0].ConfigMap.Name != config {
			t.Errorf("%s: db-purge CronJob volumes %+v, want the last good ConfigMap %s", state, v, config)
		}
		if now := artefacts(t, ns, "glance-config", &corev1.ConfigMapList{}); !slices.Equal(now, cms) {
			t.Errorf("%s: config ConfigMaps %v, want %v", state, now, cms)
		}
		if now := artefacts(t, ns, "glance-backends", &corev1.SecretList{}); !slices.Equal(now, secrets) {
			t.Errorf("%s: backends Secrets %v, want %v", state, now, secrets)
		}
		if jobUID(t, ns, "glance-db-sync") != job {
			t.Errorf("%s: db-sync re-ran", state)
		}
	}

	// Each wait below observes the status written at the end of a pass
	// that ran the Deployment and DBPurge steps over the invalid projection.
	setDefault(t, ns, "archive", true)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonNoDefaultBackend, "2 credential-ready defaults (archive, fast)")
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionFalse, "NotAllReady")
	check("two defaults")

	// Back through the original projection (same content, same names) to none.
	setDefault(t, ns, "archive", false)
	setDefault(t, ns, "fast", false)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonNoDefaultBackend, "none of the 2 attached GlanceBackends")
	waitCondition(t, ns, "glance", conditions.TypeDeploymentReady, metav1.ConditionTrue, "DeploymentReady")
	waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionTrue, "DatabaseSynced")
	check("no default")

	setDefault(t, ns, "fast", true)
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	check("one default again")
}

// Flipping the default touches glance-api.conf only: a new config
// ConfigMap, the same backends Secret, and a rollout for the new ConfigMap
// (after the db-sync its new template asks for).
func TestFlipDefaultChangesOnlyConfigMap(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	before := deployment(t, ns, "glance")
	config, backends := mounts(before)
	installed := backendsSecrets(t, ns)
	job := jobUID(t, ns, "glance-db-sync")

	setDefault(t, ns, "fast", false)
	setDefault(t, ns, "archive", true)
	waitBackendsMessage(t, ns, "glance", glancev1.ReasonAllBackendsProjected, "default archive")
	finishNewJob(t, ns, "glance-db-sync", job, true)
	suite.RollOutAfter(t, ns, "glance", before.Generation)
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")

	after := deployment(t, ns, "glance")
	newConfig, newBackends := mounts(after)
	if newBackends != backends {
		t.Errorf("backends Secret %s -> %s: the default is not part of backends.conf", backends, newBackends)
	}
	if newConfig == config {
		t.Fatalf("config ConfigMap %s unchanged after the default moved", config)
	}
	if conf := apiConf(t, ns, newConfig); !strings.Contains(conf, "default_backend = archive") {
		t.Errorf("new glance-api.conf lacks default_backend = archive:\n%s", conf)
	}
	if conf := apiConf(t, ns, config); !strings.Contains(conf, "default_backend = fast") {
		t.Errorf("old glance-api.conf lacks default_backend = fast:\n%s", conf)
	}
	wantNoNewBackendsSecret(t, ns, installed, backends)
	a, b := after.Spec.Template.Annotations, before.Spec.Template.Annotations
	if a[render.AuthtokenHash] != b[render.AuthtokenHash] || a[render.DBConnHash] != b[render.DBConnHash] {
		t.Errorf("credential digests changed with the default: %v -> %v", b, a)
	}
}
