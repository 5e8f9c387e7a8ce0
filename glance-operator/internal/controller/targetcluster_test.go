package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// A Glance naming a second real control plane, registered by a kubeconfig
// Secret: its children, the backends Secret and the purge CronJob are
// created there, the S3 credentials are read there, the GlanceBackends and
// the Glance's status stay on the management cluster, and the whole chain
// reaches Ready, the health probe included (through that cluster's
// services/proxy). Deleting the Glance removes what it left there. What
// every operator shares (deregistration, abandonment, disengagement) is
// placement's target-cluster test.
func TestTargetCluster(t *testing.T) {
	ctx := context.Background()
	remoteEnv, remote := testenv.StartRemote(t, glancev1.AddToScheme)

	ns := suite.Namespace(t)
	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "fast", "glance", "s3-a", true)))
	must(t, k8s.Create(ctx, fixture.S3Backend(ns, "archive", "glance", "s3-b", false)))
	g := newGlance(ns, "glance")
	g.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "glance-remote"}
	must(t, k8s.Create(ctx, g))
	got := waitCondition(t, ns, g.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
	if len(got.Finalizers) != 0 {
		t.Errorf("finalizers %v on an unresolvable target", got.Finalizers)
	}
	waitBackend(t, ns, "fast", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)

	// Every input lives on the target, the S3 credentials included: the
	// management cluster holds none of them.
	s3 := map[string]string{glancev1.S3AccessKeyID: "AKIA", glancev1.S3SecretAccessKey: "remote-s3"}
	testenv.TargetInputs(t, remote, ns, g.Name, render.ContainerName, map[string]map[string]string{
		"glance-db":           {"username": "glance", "password": "db"},
		"glance-service-user": {"password": "ks"},
		"s3-a":                s3,
		"s3-b":                s3,
	})
	suite.RegisterCluster(t, remoteEnv, clustersNamespace, "glance-remote", "glance-operator")
	// Nothing watches registrations: the unresolved Glance retries every
	// 15 s, and a poke retries now.
	poke(t, ns, g.Name)

	for _, obj := range []client.Object{testenv.MariaDBDatabase(ns, g.Name), testenv.MariaDBUser(ns, g.Name), testenv.MariaDBGrant(ns, g.Name)} {
		suite.Eventually(t, fmt.Sprintf("%T on the target", obj), func() error { return testenv.SQLReady(ctx, remote, obj) })
	}
	for _, b := range []string{"fast", "archive"} {
		waitBackend(t, ns, b, glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
	}
	waitCondition(t, ns, g.Name, glancev1.ConditionBackendsReady, metav1.ConditionTrue, glancev1.ReasonAllBackendsProjected)
	suite.Eventually(t, "db-sync on the target", func() error {
		c := condition(get(t, ns, g.Name), conditions.TypeDatabaseReady)
		if c != nil && c.Reason == conditions.ReasonDatabaseSynced {
			return nil
		}
		var j batchv1.Job
		if err := remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: "glance-db-sync"}, &j); err != nil {
			return err
		}
		if term, _, _ := dbsync.Terminal(&j); !term && j.DeletionTimestamp.IsZero() {
			if err := testenv.JobFinished(ctx, remote, client.ObjectKeyFromObject(&j), true); err != nil {
				return err
			}
		}
		return fmt.Errorf("DatabaseReady is %v", c)
	})
	suite.Eventually(t, "Deployment on the target", func() error {
		return testenv.DeploymentAvailable(ctx, remote, client.ObjectKey{Namespace: ns, Name: g.Name})
	})
	got = waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if c := condition(got, glancev1.ConditionGlanceAPIReady); !strings.Contains(c.Message, "/services/glance:9292/proxy/healthcheck") {
		t.Errorf("GlanceAPIReady message %q: not probed through the target's services/proxy", c.Message)
	}
	if len(got.Finalizers) != 2 {
		t.Errorf("finalizers = %v, want service and remote-children", got.Finalizers)
	}
	for _, b := range []string{"fast", "archive"} {
		waitBackend(t, ns, b, glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
	}

	// The children, the backends Secret and the CronJob are on the target,
	// marked by ownership labels instead of owner references.
	var d appsv1.Deployment
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: g.Name}, &d))
	config, backends := mounts(&d)
	var sec corev1.Secret
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: backends}, &sec))
	if conf := string(sec.Data[render.KeyBackendsConf]); !strings.Contains(conf, "[fast]") || !strings.Contains(conf, "remote-s3") {
		t.Errorf("backends.conf on the target:\n%s", conf)
	}
	var cj batchv1.CronJob
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: "glance-db-purge"}, &cj))
	var cm corev1.ConfigMap
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: config}, &cm))
	for _, obj := range []client.Object{&d, &sec, &cj, &cm} {
		if obj.GetLabels()[targetcluster.LabelOwnerName] != g.Name || len(obj.GetOwnerReferences()) != 0 {
			t.Errorf("%T %s on the target: labels %v owners %v", obj, obj.GetName(), obj.GetLabels(), obj.GetOwnerReferences())
		}
	}
	for _, obj := range []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: g.Name}},
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance-db-purge"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: backends}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: config}},
	} {
		if exists(t, obj) {
			t.Errorf("%T %s landed on the management cluster", obj, obj.GetName())
		}
	}

	// A purge run there is reported and counted.
	run := cronRun(t, remote, ns, "glance-db-purge", "glance-db-purge-29000001", true)
	suite.Eventually(t, "purge run on the target counted", func() error {
		c := condition(get(t, ns, g.Name), glancev1.ConditionDBPurgeReady)
		if !strings.Contains(c.Message, run.Name+", succeeded") {
			return fmt.Errorf("DBPurgeReady %s: %s", c.Reason, c.Message)
		}
		if n := testutil.ToFloat64(reconciler.Metrics.Jobs[metrics.JobDBPurge].Total.WithLabelValues(g.Name, ns, "succeeded")); n != 1 {
			return fmt.Errorf("db_purge_total = %v", n)
		}
		return nil
	})

	// A rotated S3 credential there reaches the Glance through the target's
	// Secret watch and rolls a new backends Secret there.
	suite.Eventually(t, "rotate s3-b on the target", func() error {
		var s corev1.Secret
		if err := remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: "s3-b"}, &s); err != nil {
			return err
		}
		s.Data = map[string][]byte{glancev1.S3AccessKeyID: []byte("AKIA"), glancev1.S3SecretAccessKey: []byte("rotated-remote")}
		return remote.Update(ctx, &s)
	})
	suite.Eventually(t, "new backends Secret on the target", func() error {
		if err := remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: g.Name}, &d); err != nil {
			return err
		}
		if _, b := mounts(&d); b == backends {
			return fmt.Errorf("Deployment still mounts %s", b)
		}
		return nil
	})

	// Deletion removes what the Glance left on the target (no garbage
	// collector there would).
	must(t, k8s.Delete(ctx, get(t, ns, g.Name)))
	suite.Eventually(t, "Glance released", gone(t, ns, g.Name))
	suite.Eventually(t, "children deleted on the target", func() error {
		for _, obj := range []client.Object{
			&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: g.Name}},
			&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "glance-db-purge"}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: backends}},
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: config}},
		} {
			if err := remote.Get(ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
				return fmt.Errorf("%T %s still on the target (%w)", obj, obj.GetName(), err)
			}
		}
		return nil
	})
	waitBackend(t, ns, "fast", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForParent)
}
