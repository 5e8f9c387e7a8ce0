package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// Rotating the service-user password, then the database password, rolls
// the Deployment through the digest annotations, one digest at a time; the
// DSN Secret follows and db-sync does not re-run for a password.
func TestCredentialRotationRollsDeployment(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	before := deployment(t, ns, "glance")
	job := jobUID(t, ns, "glance-db-sync")

	setSecret(t, ns, "glance-service-user", map[string]string{"password": "rotated"})
	suite.Eventually(t, "authtoken digest rolled", func() error {
		d := deployment(t, ns, "glance")
		a, b := d.Spec.Template.Annotations, before.Spec.Template.Annotations
		if a[render.AuthtokenHash] == b[render.AuthtokenHash] {
			return fmt.Errorf("authtoken digest unchanged")
		}
		if a[render.DBConnHash] != b[render.DBConnHash] {
			return fmt.Errorf("db-connection digest changed without a database rotation")
		}
		if d.Generation != before.Generation+1 {
			return fmt.Errorf("generation %d, want exactly one rollout after %d", d.Generation, before.Generation)
		}
		return nil
	})
	suite.RollOut(t, ns, "glance")
	mid := deployment(t, ns, "glance")

	setSecret(t, ns, "glance-db", map[string]string{"username": "glance", "password": "rotated-db"})
	suite.Eventually(t, "db-connection digest rolled", func() error {
		d := deployment(t, ns, "glance")
		a, b := d.Spec.Template.Annotations, mid.Spec.Template.Annotations
		if a[render.DBConnHash] == b[render.DBConnHash] {
			return fmt.Errorf("db-connection digest unchanged")
		}
		if a[render.AuthtokenHash] != b[render.AuthtokenHash] {
			return fmt.Errorf("authtoken digest changed by a database rotation")
		}
		var dsn corev1.Secret
		if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "glance-db-connection"}, &dsn); err != nil {
			return err
		}
		if want := "mysql+pymysql://glance:rotated-db@mariadb." + ns + ".svc:3306/glance?charset=utf8"; string(dsn.Data["connection"]) != want {
			return fmt.Errorf("DSN %q", dsn.Data["connection"])
		}
		return nil
	})
	suite.RollOut(t, ns, "glance")
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if jobUID(t, ns, "glance-db-sync") != job {
		t.Error("a rotated database password re-ran db-sync")
	}
	if c, b := mounts(deployment(t, ns, "glance")); c == "" || b == "" {
		t.Errorf("mounts lost: %s / %s", c, b)
	}
}

// A rotated S3 credential lands in a new backends Secret, which rolls the
// Deployment; glance-api.conf holds no credential, so the config ConfigMap
// and the db-sync Job stay.
func TestS3CredentialRotationRollsBackendsSecret(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	ready(t, ns, newGlance(ns, "glance"))
	before := deployment(t, ns, "glance")
	config, backends := mounts(before)
	job := jobUID(t, ns, "glance-db-sync")

	setSecret(t, ns, "s3-b", map[string]string{glancev1.S3AccessKeyID: "AKIA", glancev1.S3SecretAccessKey: "rotated-s3"})
	var newBackends string
	suite.Eventually(t, "new backends Secret mounted", func() error {
		c, b := mounts(deployment(t, ns, "glance"))
		if c != config {
			return fmt.Errorf("config ConfigMap %s -> %s for a credential", config, c)
		}
		if b == backends {
			return fmt.Errorf("Deployment still mounts %s", b)
		}
		newBackends = b
		return nil
	})
	conf := backendsConf(t, ns, newBackends)
	if !strings.Contains(conf, "rotated-s3") || strings.Count(conf, "s3-secret") != 1 {
		t.Errorf("new backends.conf does not carry archive's rotated key and fast's old one:\n%s", conf)
	}
	a, b := deployment(t, ns, "glance").Spec.Template.Annotations, before.Spec.Template.Annotations
	if a[render.AuthtokenHash] != b[render.AuthtokenHash] || a[render.DBConnHash] != b[render.DBConnHash] {
		t.Errorf("credential digests changed for an S3 rotation")
	}
	suite.RollOutAfter(t, ns, "glance", before.Generation)
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	waitBackend(t, ns, "archive", glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
	if jobUID(t, ns, "glance-db-sync") != job {
		t.Error("an S3 rotation re-ran db-sync")
	}
}
