package standins_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/standins"
)

// TestSQLBackedStandInsOnARealServer: Database, User and Grant objects
// become a schema, an account and its privileges on a real MariaDB; a
// rotated password reaches the server; deletion drops them all.
func TestSQLBackedStandInsOnARealServer(t *testing.T) {
	db, err := localsvc.StartMariaDB()
	must(t, err)
	defer func() { must(t, db.Stop()) }()

	scheme, err := standins.NewScheme()
	must(t, err)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	must(t, err)
	must(t, standins.SetupWithManager(mgr, db))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = mgr.Start(ctx) }()

	const ns = "sql"
	k := newClient(t, nil)
	ref := mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: "mariadb"}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop-db"}, StringData: map[string]string{"password": "first-pw"}}
	objs := []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		secret,
		&mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop"}, Spec: mariadbv1alpha1.DatabaseSpec{MariaDBRef: ref}},
		&mariadbv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shopper"}, Spec: mariadbv1alpha1.UserSpec{MariaDBRef: ref,
			PasswordSecretKeyRef: &mariadbv1alpha1.SecretKeySelector{LocalObjectReference: mariadbv1alpha1.LocalObjectReference{Name: "shop-db"}, Key: "password"}}},
		&mariadbv1alpha1.Grant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shopper-shop"}, Spec: mariadbv1alpha1.GrantSpec{MariaDBRef: ref,
			Privileges: []string{"ALL PRIVILEGES"}, Database: "shop", Table: "*", Username: "shopper"}},
	}
	for _, o := range objs {
		must(t, k.Create(ctx, o))
	}
	within(t, func() error {
		for _, o := range objs[2:] {
			if err := ready(ctx, k, o); err != nil {
				return err
			}
		}
		_, err := db.QueryAs("shopper", "first-pw", "shop", "CREATE TABLE IF NOT EXISTS t (i INT)")
		return err
	})

	secret.StringData = map[string]string{"password": "second-pw"}
	must(t, k.Update(ctx, secret))
	within(t, func() error {
		_, err := db.QueryAs("shopper", "second-pw", "shop", "SELECT COUNT(*) FROM t")
		return err
	})
	if _, err := db.QueryAs("shopper", "first-pw", "shop", "SELECT 1"); err == nil {
		t.Fatal("the old password still works after the rotation")
	}

	for _, o := range objs[2:] {
		must(t, k.Delete(ctx, o))
	}
	within(t, func() error {
		for _, o := range objs[2:] {
			if err := k.Get(ctx, client.ObjectKeyFromObject(o), o); err == nil {
				return fmt.Errorf("%T %s still exists", o, o.GetName())
			}
		}
		got, err := db.Query("SELECT (SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop') + (SELECT COUNT(*) FROM mysql.user WHERE user = 'shopper')")
		if err != nil {
			return err
		}
		if got != "0" {
			return fmt.Errorf("schema or account left: %q", got)
		}
		return nil
	})
}

// A Grant whose User does not exist yet is retried at a steady interval,
// not with an error's growing backoff, and reports why it is not Ready.
func TestSQLGrantBeforeItsUserRetriesSteadily(t *testing.T) {
	db, err := localsvc.StartMariaDB()
	must(t, err)
	defer func() { must(t, db.Stop()) }()
	ctx := context.Background()
	k := newClient(t, nil)
	const ns = "sql-early-grant"
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	grant := &mariadbv1alpha1.Grant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "early"}, Spec: mariadbv1alpha1.GrantSpec{
		MariaDBRef: mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: "mariadb"}},
		Privileges: []string{"ALL PRIVILEGES"}, Database: "shop", Table: "*", Username: "not-yet"}}
	must(t, k.Create(ctx, grant))
	r := standins.NewSQLGrant(k, db)
	res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: client.ObjectKeyFromObject(grant)})
	if err != nil || res.RequeueAfter != standins.RetryInterval {
		t.Fatalf("Grant before its User: result %+v, error %v; want a retry after %s and no error", res, err, standins.RetryInterval)
	}
	must(t, k.Get(ctx, client.ObjectKeyFromObject(grant), grant))
	c := meta.FindStatusCondition(grant.Status.Conditions, standins.ConditionReady)
	if c == nil || c.Status != metav1.ConditionFalse || c.Message == "" {
		t.Fatalf("Ready = %+v, want False with the server's message", c)
	}
}

func ready(ctx context.Context, k client.Client, o client.Object) error {
	if err := k.Get(ctx, client.ObjectKeyFromObject(o), o); err != nil {
		return err
	}
	var conds []metav1.Condition
	switch v := o.(type) {
	case *mariadbv1alpha1.Database:
		conds = v.Status.Conditions
	case *mariadbv1alpha1.User:
		conds = v.Status.Conditions
	case *mariadbv1alpha1.Grant:
		conds = v.Status.Conditions
	}
	if !meta.IsStatusConditionTrue(conds, standins.ConditionReady) {
		return fmt.Errorf("%T %s not Ready: %v", o, o.GetName(), conds)
	}
	return nil
}

func within(t *testing.T, f func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for err := f(); err != nil; err = f() {
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
