package controller_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// A second real control plane, without Gateway API, registered by a
// kubeconfig Secret, receives every child of a Placement that names it.
func TestTargetCluster(t *testing.T) {
	ctx := context.Background()
	remoteEnv, remoteCfg, err := testenv.Start(testenv.Options{WithoutGatewayAPI: true})
	must(t, err)
	t.Cleanup(func() { _ = remoteEnv.Stop() })
	remote, err := client.New(remoteCfg, client.Options{Scheme: schemeForTests()})
	must(t, err)

	ns := namespace(t)
	p := newPlacement(ns, "placement")
	p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "remote"}
	p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "placement.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "public"}}
	must(t, k8s.Create(ctx, p))
	got := waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "TargetClusterUnavailable")
	if len(got.Finalizers) != 0 {
		t.Errorf("finalizers %v on an unresolvable target", got.Finalizers)
	}

	// Inputs live on the target: namespace, store, Secrets, MariaDB.
	must(t, remote.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, testenv.SecretStore(ctx, remote, "", serviceapi.DefaultSecretStoreName, true))
	for name, data := range map[string]map[string]string{
		"placement-db":           {"username": "placement", "password": "db"},
		"placement-service-user": {"password": "ks"},
	} {
		must(t, remote.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: data}))
	}
	must(t, testenv.MariaDB(ctx, remote, ns, "mariadb", true))
	register(t, remoteEnv)

	eventually(t, "Database on the target", func() error {
		return testenv.SQLReady(ctx, remote, testenv.MariaDBDatabase(ns, p.Name))
	})
	for _, obj := range []client.Object{testenv.MariaDBUser(ns, p.Name), testenv.MariaDBGrant(ns, p.Name)} {
		eventually(t, "SQL CR on the target", func() error { return testenv.SQLReady(ctx, remote, obj) })
	}
	eventually(t, "Job on the target", func() error {
		return testenv.JobFinished(ctx, remote, client.ObjectKey{Namespace: ns, Name: p.Name + "-db-sync"}, true)
	})
	eventually(t, "Deployment on the target", func() error {
		return testenv.DeploymentAvailable(ctx, remote, client.ObjectKey{Namespace: ns, Name: p.Name})
	})
	waitCondition(t, ns, p.Name, placementv1.ConditionHTTPRouteReady, metav1.ConditionFalse, "GatewayAPINotInstalled")

	var d appsv1.Deployment
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: p.Name}, &d))
	if d.Labels[targetcluster.LabelOwnerName] != p.Name || len(d.OwnerReferences) != 0 {
		t.Errorf("remote Deployment labels %v owners %v", d.Labels, d.OwnerReferences)
	}
	if exists(t, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: p.Name}}) {
		t.Errorf("a child landed on the management cluster")
	}
	if engaged := reconciler.Resolver.Engaged(); !slices.Equal(engaged, []string{"remote"}) {
		t.Errorf("engaged clusters %v, want [remote]", engaged)
	}
	got = get(t, ns, p.Name)
	if len(got.Finalizers) != 2 {
		t.Errorf("finalizers = %v, want service and remote-children", got.Finalizers)
	}

	// The owned <cr>-db-connection on the target: deleted by hand, it comes
	// back (the target's Secret watch maps it by its ownership labels).
	dsn := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: p.Name + "-db-connection"}}
	must(t, remote.Get(ctx, client.ObjectKeyFromObject(dsn), dsn))
	deleted := dsn.UID
	must(t, remote.Delete(ctx, dsn))
	eventually(t, "db-connection Secret recreated on the target", func() error {
		var again corev1.Secret
		if err := remote.Get(ctx, client.ObjectKeyFromObject(dsn), &again); err != nil {
			return err
		}
		if again.UID == deleted {
			return fmt.Errorf("still the deleted Secret")
		}
		return nil
	})

	// Deregistration: the resolver error is reported ahead of every step.
	must(t, k8s.Delete(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: clustersNamespace, Name: "remote"}}))
	poke(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "TargetClusterUnavailable")

	// Deletion afterwards: held for the grace period, then released with RemoteChildrenAbandoned.
	must(t, k8s.Delete(ctx, got))
	eventually(t, "Placement released", gone(t, ns, p.Name))
	if n := eventReasons(t, ns, p.Name)["RemoteChildrenAbandoned"]; n == 0 {
		t.Errorf("no RemoteChildrenAbandoned event")
	}
	if err := remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: p.Name}, &d); err != nil {
		t.Errorf("abandoned Deployment should stay on the target: %v", err)
	}

	// Registered again and used by one Placement: deleting it (the target
	// reachable this time) disengages the cluster.
	register(t, remoteEnv)
	other := newPlacement(ns, "other")
	other.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "remote"}
	must(t, k8s.Create(ctx, other))
	eventually(t, "other Placement resolved its target", func() error {
		if f := get(t, ns, other.Name).Finalizers; len(f) != 2 {
			return fmt.Errorf("finalizers %v", f)
		}
		if engaged := reconciler.Resolver.Engaged(); !slices.Equal(engaged, []string{"remote"}) {
			return fmt.Errorf("engaged clusters %v, want [remote]", engaged)
		}
		return nil
	})
	must(t, k8s.Delete(ctx, other))
	eventually(t, "other Placement released", gone(t, ns, other.Name))
	eventually(t, "cluster disengaged", func() error {
		if engaged := reconciler.Resolver.Engaged(); len(engaged) != 0 {
			return fmt.Errorf("clusters %v still engaged after their only Placement is gone", engaged)
		}
		return nil
	})
}

// register writes the registration Secret of the remote control plane.
func register(t *testing.T, env *envtest.Environment) {
	t.Helper()
	user, err := env.AddUser(envtest.User{Name: "placement-operator", Groups: []string{"system:masters"}}, nil)
	must(t, err)
	kubeconfig, err := user.KubeConfig()
	must(t, err)
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: clustersNamespace, Name: "remote",
			Labels: map[string]string{targetcluster.RegistrationLabel: targetcluster.RegistrationLabelValue}},
		Data: map[string][]byte{targetcluster.KubeconfigKey: kubeconfig},
	}
	must(t, k8s.Create(context.Background(), s))
}
