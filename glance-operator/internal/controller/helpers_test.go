package controller_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

var must = testenv.Must

// newGlance is a minimal valid Glance on a managed MariaDB with the fields
// the defaulting webhook would fill.
func newGlance(ns, name string) *glancev1.Glance {
	g := fixture.Bare(ns, name)
	testenv.WebhookFilled(&g.Spec.ServiceSpec, "glance")
	return g
}

// inputs creates the store, the credential Secrets, a Ready MariaDB and the
// S3 credentials Secrets s3-a and s3-b.
func inputs(t *testing.T, ns string) {
	t.Helper()
	s3 := map[string]string{glancev1.S3AccessKeyID: "AKIA", glancev1.S3SecretAccessKey: "s3-secret"}
	suite.Inputs(t, ns, map[string]map[string]string{
		"glance-db":           {"username": "glance", "password": "db-secret"},
		"glance-service-user": {"password": "ks-secret"},
		"s3-a":                s3,
		"s3-b":                s3,
	})
}

// twoBackends attaches "fast" (default, s3-a) and "archive" (s3-b) to name.
func twoBackends(t *testing.T, ns, name string) {
	t.Helper()
	must(t, k8s.Create(context.Background(), fixture.S3Backend(ns, "fast", name, "s3-a", true)))
	must(t, k8s.Create(context.Background(), fixture.S3Backend(ns, "archive", name, "s3-b", false)))
}

func get(t *testing.T, ns, name string) *glancev1.Glance { t.Helper(); return glances.Get(t, ns, name) }

// glances and backends are the suite's typed accessors.
var (
	glances  = testenv.Kind[glancev1.Glance, *glancev1.Glance]{Suite: suite}
	backends = testenv.Kind[glancev1.GlanceBackend, *glancev1.GlanceBackend]{Suite: suite}
)

// waitCondition waits until the Glance's condition has the status and reason.
func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *glancev1.Glance {
	t.Helper()
	return glances.Wait(t, ns, name, condType, status, reason)
}

// waitBackend waits until the GlanceBackend's condition has the status and reason.
func waitBackend(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *glancev1.GlanceBackend {
	t.Helper()
	return backends.Wait(t, ns, name, condType, status, reason)
}

// toReady drives a fresh Glance with two backends to Ready=True through the simulators.
func toReady(t *testing.T, ns string, g *glancev1.Glance) *glancev1.Glance {
	t.Helper()
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(context.Background(), g))
	suite.ProvisionDatabase(t, ns, g.Name)
	suite.FinishJob(t, ns, g.Name+"-db-sync", true)
	suite.RollOut(t, ns, g.Name)
	return waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	return suite.Deployment(t, ns, name)
}

// poke writes an annotation on the Glance: a pass follows.
func poke(t *testing.T, ns, name string) {
	t.Helper()
	suite.Poke(t, &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
}

// update applies mutate to the live Glance and writes it back.
func update(t *testing.T, ns, name string, mutate func(*glancev1.Glance)) {
	t.Helper()
	glances.Update(t, ns, name, mutate)
}

func getBackend(t *testing.T, ns, name string) *glancev1.GlanceBackend {
	t.Helper()
	return backends.Get(t, ns, name)
}

// updateBackend applies mutate to the live GlanceBackend and writes it back.
func updateBackend(t *testing.T, ns, name string, mutate func(*glancev1.GlanceBackend)) {
	t.Helper()
	backends.Update(t, ns, name, mutate)
}

// setSecret replaces a Secret's data.
func setSecret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	suite.SetSecret(t, ns, name, data)
}

// exists reads obj and reports whether it is there.
func exists(t *testing.T, obj client.Object) bool { t.Helper(); return suite.Exists(t, obj) }

// mounts names the config ConfigMap and the backends Secret a Deployment mounts.
func mounts(d *appsv1.Deployment) (config, backends string) {
	for _, v := range d.Spec.Template.Spec.Volumes {
		switch {
		case v.Name == workload.ConfigVolumeName && v.ConfigMap != nil:
			config = v.ConfigMap.Name
		case v.Name == render.BackendsVolume && v.Secret != nil:
			backends = v.Secret.SecretName
		}
	}
	return config, backends
}

// backendsConf is backends.conf of the backends Secret name.
func backendsConf(t *testing.T, ns, name string) string {
	t.Helper()
	var s corev1.Secret
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &s))
	return string(s.Data[render.KeyBackendsConf])
}

// apiConf is glance-api.conf of the config ConfigMap name.
func apiConf(t *testing.T, ns, name string) string {
	t.Helper()
	var cm corev1.ConfigMap
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &cm))
	return cm.Data[render.KeyGlanceAPIConf]
}

// artefacts lists the generations of a config artefact (testenv.Suite.Artefacts).
func artefacts(t *testing.T, ns, base string, list client.ObjectList) []string {
	t.Helper()
	return suite.Artefacts(t, ns, list, client.MatchingLabels{configartifact.BaseLabel: base})
}

// backendsSecrets lists the backends Secrets of ns. An install with two
// backends may project a partial set first (one backend judged
// credential-ready before the other), so a test compares with what its
// install left, not with the one Secret the Deployment mounts.
func backendsSecrets(t *testing.T, ns string) []string {
	t.Helper()
	return artefacts(t, ns, "glance-backends", &corev1.SecretList{})
}

// wantNoNewBackendsSecret fails t unless ns holds exactly the backends
// Secrets installed, mounted among them.
func wantNoNewBackendsSecret(t *testing.T, ns string, installed []string, mounted string) {
	t.Helper()
	if secrets := backendsSecrets(t, ns); !slices.Equal(secrets, installed) || !slices.Contains(secrets, mounted) {
		t.Errorf("backends Secrets %v, want those of the install %v, the mounted %s among them", secrets, installed, mounted)
	}
}

// jobUID is the UID of the Job name, "" when there is none.
func jobUID(t *testing.T, ns, name string) types.UID { t.Helper(); return suite.JobUID(t, ns, name) }

// finishNewJob finishes the re-run of the Job name (testenv.Suite.FinishNewJob).
func finishNewJob(t *testing.T, ns, name string, old types.UID, succeeded bool) {
	t.Helper()
	suite.FinishNewJob(t, ns, name, old, succeeded)
}

// eventsOf lists the events with reason recorded on the object name.
func eventsOf(t *testing.T, ns, name, reason string) []corev1.Event {
	t.Helper()
	return suite.Events(t, ns, name, reason)
}

// emissions estimates how often events were emitted (testenv.Emissions).
func emissions(events []corev1.Event) int { return testenv.Emissions(events) }

// waitEvent waits for an event of the type with reason on the object name.
func waitEvent(t *testing.T, ns, name, reason, eventType string) []corev1.Event {
	t.Helper()
	return suite.WaitEvent(t, ns, name, reason, eventType)
}

// countProbes points the Glance's health probe at a server that counts the
// probes: each one is a pass that reached the parallel group.
func countProbes(t *testing.T, ns, name string) *atomic.Int64 {
	t.Helper()
	return testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: name})
}

// passes returns the writes the manager sent to the namespace while at least
// one whole pass over the Glance ran (testenv.Suite.QuietPasses).
func passes(t *testing.T, ns, name string, hits *atomic.Int64) []string {
	t.Helper()
	return suite.QuietPasses(t, &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}, hits)
}

// inCache waits until the manager's cache holds obj as the API server has it.
func inCache(t *testing.T, obj client.Object) { t.Helper(); suite.InCache(t, reconciler.Client, obj) }

// seriesOf counts the series of c labelled with the Glance name in ns.
func seriesOf(t *testing.T, c prometheus.Collector, name, ns string) int {
	t.Helper()
	return testenv.CountSeries(t, c, "glance", name, ns)
}

// condition is the Glance's condition condType, nil when unset.
func condition(g *glancev1.Glance, condType string) *metav1.Condition {
	return testenv.Condition(g, condType)
}

// backendCondition is the GlanceBackend's condition condType, nil when unset.
func backendCondition(b *glancev1.GlanceBackend, condType string) *metav1.Condition {
	return testenv.Condition(b, condType)
}

// finishDBSync finishes the db-sync Job until DatabaseReady reports the
// outcome: a Job started for a projection that changed meanwhile (a second
// backend turning credential-ready) is replaced when it ends, and its
// successor is finished the same way.
func finishDBSync(t *testing.T, ns, name string, succeeded bool) (finished int) {
	t.Helper()
	uids := map[types.UID]bool{}
	want := "DatabaseSynced"
	if !succeeded {
		want = "DBSyncFailed"
	}
	suite.Eventually(t, "db-sync "+want, func() error {
		g := get(t, ns, name)
		c := condition(g, conditions.TypeDatabaseReady)
		if c != nil && c.Reason == want && c.ObservedGeneration == g.Generation {
			return nil
		}
		j, err := getJob(ns, name+"-db-sync")
		if err != nil {
			return err
		}
		if term, _, _ := dbsync.Terminal(j); !term && j.DeletionTimestamp.IsZero() {
			if err := testenv.JobFinished(context.Background(), k8s, client.ObjectKeyFromObject(j), succeeded); err != nil {
				return err
			}
			uids[j.UID] = true
		}
		return fmt.Errorf("DatabaseReady is %v", c)
	})
	return len(uids)
}

// ready is toReady for suites under load: the first db sync waits until
// both backends are checked, but a backend judged before its Secret reached
// the operator's cache turns credential-ready later, and the Job of the
// projection without it is replaced; finishDBSync follows that.
func ready(t *testing.T, ns string, g *glancev1.Glance) *glancev1.Glance {
	t.Helper()
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(context.Background(), g))
	suite.ProvisionDatabase(t, ns, g.Name)
	finishDBSync(t, ns, g.Name, true)
	suite.RollOut(t, ns, g.Name)
	return waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
}

// cronRun plays the CronJob controller for one run (testenv.Suite.CronRun).
func cronRun(t *testing.T, c client.Client, ns, cronJob, job string, succeeded bool) *batchv1.Job {
	t.Helper()
	return suite.CronRun(t, c, ns, cronJob, job, succeeded)
}
