package controller_test

import (
	"context"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func jobUID(t *testing.T, ns, name string) types.UID {
	t.Helper()
	var j batchv1.Job
	if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name + "-db-sync"}, &j); err != nil {
		return ""
	}
	return j.UID
}

func setSecret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	eventually(t, "update Secret "+name, func() error {
		var s corev1.Secret
		if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &s); err != nil {
			return err
		}
		s.StringData = data
		return k8s.Update(context.Background(), &s)
	})
}

func TestCredentialRotationRollsDeployment(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	before := deployment(t, ns, "placement")

	setSecret(t, ns, "placement-service-user", map[string]string{"password": "rotated"})
	eventually(t, "authtoken hash rolled", func() error {
		d := deployment(t, ns, "placement")
		a, b := d.Spec.Template.Annotations, before.Spec.Template.Annotations
		if a["placement.c5c3.io/authtoken-hash"] == b["placement.c5c3.io/authtoken-hash"] {
			return errorf("authtoken hash unchanged")
		}
		if a["placement.c5c3.io/db-connection-hash"] != b["placement.c5c3.io/db-connection-hash"] {
			return errorf("db-connection hash changed without a DB rotation")
		}
		if d.Generation != before.Generation+1 {
			return errorf("generation %d, want exactly one rollout after %d", d.Generation, before.Generation)
		}
		return nil
	})
	mid := deployment(t, ns, "placement")
	job := jobUID(t, ns, "placement")
	setSecret(t, ns, "placement-db", map[string]string{"username": "placement", "password": "rotated-db"})
	eventually(t, "db-connection hash rolled", func() error {
		d := deployment(t, ns, "placement")
		if d.Spec.Template.Annotations["placement.c5c3.io/db-connection-hash"] == mid.Spec.Template.Annotations["placement.c5c3.io/db-connection-hash"] {
			return errorf("db-connection hash unchanged")
		}
		var dsn corev1.Secret
		if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "placement-db-connection"}, &dsn); err != nil {
			return err
		}
		if want := "mysql+pymysql://placement:rotated-db@mariadb." + ns + ".svc:3306/placement?charset=utf8"; string(dsn.Data["connection"]) != want {
			return errorf("DSN %q", dsn.Data["connection"])
		}
		return nil
	})
	if jobUID(t, ns, "placement") != job {
		t.Errorf("a rotated database password re-ran db-sync")
	}
}

// A new database target (here another port of the server) re-runs db-sync
// before the API rolls onto it: the schema may not exist there yet.
func TestNewDatabaseTargetRerunsDBSync(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	job := jobUID(t, ns, "placement")
	update(t, ns, "placement", func(p *placementv1.Placement) { p.Spec.Database.Port = 3307 })
	eventually(t, "db-sync re-run for the new target", func() error {
		if uid := jobUID(t, ns, "placement"); uid == "" || uid == job {
			return errorf("db-sync Job not replaced (%q)", uid)
		}
		return nil
	})
	waitCondition(t, ns, "placement", placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "DBSyncInProgress")
}

func TestShortCircuitedPassDoesNotRoll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	must(t, testenv.SecretStore(ctx, k8s, ns, "own-store", true))
	p := newPlacement(ns, "placement")
	p.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "own-store"}
	toReady(t, ns, p)
	before := deployment(t, ns, "placement")

	must(t, testenv.SecretStore(ctx, k8s, ns, "own-store", false))
	waitCondition(t, ns, "placement", placementv1.ConditionSecretsReady, metav1.ConditionFalse, "SecretStoreNotReady")
	setSecret(t, ns, "placement-service-user", map[string]string{"password": "rotated-while-store-down"})
	time.Sleep(2 * time.Second) // let the Secret event's pass run; it must stop at the gate
	after := deployment(t, ns, "placement")
	if after.Generation != before.Generation || after.ResourceVersion != before.ResourceVersion {
		t.Errorf("Deployment written by a short-circuited pass: generation %d→%d", before.Generation, after.Generation)
	}
	waitCondition(t, ns, "placement", placementv1.ConditionReady, metav1.ConditionFalse, "NotAllReady")
}
