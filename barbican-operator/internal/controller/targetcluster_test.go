package controller_test

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
	"github.com/c5c3/openstack-operators/testsupport/runsuite"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// A Barbican naming a second real control plane: the store reports the
// unresolvable target, then reads its AppRole pair and CA there and logs in
// to the real server; the config Secret, the Deployment and the CronJob land
// there with ownership labels, the chain reaches Ready (probe through that
// cluster's services/proxy). A pair rotated on the target is checked by the
// store and then rolls the Deployment there. A managed store waits until
// the instance's CA is on the target too (woken by its watch there: its own
// requeue is as long as the wait), refuses a different CA, and mints its
// pair there. Deletion
// removes the children on the target.
func TestTargetCluster(t *testing.T) {
	ctx := context.Background()
	remoteEnv, remote := testenv.StartRemote(t, barbicanv1.AddToScheme)

	ns := suite.Namespace(t)
	srv := openbao.Start(t)
	must(t, srv.EnableKV2(ctx, barbicanv1.DefaultKVMountpoint))
	must(t, srv.WritePolicy(ctx, "barbican-store", storePolicy))
	roleID, secretID, err := srv.CreateAppRole(ctx, "barbican", openbao.AppRoleOptions{Policies: []string{"barbican-store"}})
	must(t, err)
	must(t, k8s.Create(ctx, fixture.BrownfieldStore(ns, "vault", "barbican", srv.URL, approleSecret, caSecret, true)))
	b := newBarbican(ns, "barbican")
	b.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "barbican-remote"}
	must(t, k8s.Create(ctx, b))
	got := waitCondition(t, ns, b.Name, conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
	if len(got.Finalizers) != 0 {
		t.Errorf("finalizers %v on an unresolvable target", got.Finalizers)
	}
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)

	// Every input lives on the target, the store's Secrets included.
	testenv.TargetInputs(t, remote, ns, b.Name, render.ContainerName, map[string]map[string]string{
		"barbican-db":           {"username": "barbican", "password": "db"},
		"barbican-service-user": {"password": "ks"},
		approleSecret:           {barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID},
		caSecret:                {barbicanv1.KeyCACert: string(srv.CAPEM)},
	})
	suite.RegisterCluster(t, remoteEnv, runsuite.ClustersNamespace, "barbican-remote", "barbican-operator")
	poke(t, ns, b.Name)
	pokeStore(t, ns, "vault")

	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	waitCondition(t, ns, b.Name, barbicanv1.ConditionSecretStoresReady, metav1.ConditionTrue, barbicanv1.ReasonAllStoresProjected)
	remoteSuite := testenv.Suite{Client: remote, Dump: suite.Dump}
	remoteSuite.Eventually(t, "db-sync on the target", func() error {
		if c := condition(get(t, ns, b.Name), conditions.TypeDatabaseReady); c != nil && c.Reason == conditions.ReasonDatabaseSynced {
			return nil
		}
		for _, obj := range mariadbObjects(ns, b.Name) {
			if err := testenv.SQLReady(ctx, remote, obj); err != nil {
				return err
			}
		}
		return testenv.JobFinished(ctx, remote, client.ObjectKey{Namespace: ns, Name: "barbican-db-sync"}, true)
	})
	remoteSuite.Eventually(t, "Deployment on the target", func() error {
		return testenv.DeploymentAvailable(ctx, remote, client.ObjectKey{Namespace: ns, Name: b.Name})
	})
	got = waitCondition(t, ns, b.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if c := condition(got, barbicanv1.ConditionBarbicanAPIReady); !strings.Contains(c.Message, "/services/barbican:9311/proxy/healthcheck") {
		t.Errorf("BarbicanAPIReady message %q: not probed through the target's services/proxy", c.Message)
	}
	waitStore(t, ns, "vault", barbicanv1.ConditionConfigProjected, metav1.ConditionTrue, barbicanv1.ReasonConfigProjected)

	var d appsv1.Deployment
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: b.Name}, &d))
	config := ""
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == render.ConfigVolume && v.Secret != nil {
			config = v.Secret.SecretName
		}
	}
	children := []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: b.Name}},
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "barbican-db-clean"}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: config}},
	}
	for _, obj := range children {
		must(t, remote.Get(ctx, client.ObjectKeyFromObject(obj), obj))
		if obj.GetLabels()[targetcluster.LabelOwnerName] != b.Name || len(obj.GetOwnerReferences()) != 0 {
			t.Errorf("%T %s on the target: labels %v owners %v", obj, obj.GetName(), obj.GetLabels(), obj.GetOwnerReferences())
		}
		if suite.Exists(t, obj.DeepCopyObject().(client.Object)) {
			t.Errorf("%T %s landed on the management cluster", obj, obj.GetName())
		}
	}

	rotated, err := srv.MintSecretID(ctx, "barbican")
	must(t, err)
	before := d.Spec.Template.Annotations[render.StoreCredsHash]
	must(t, remote.Update(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: approleSecret},
		StringData: map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: rotated}}))
	remoteSuite.Eventually(t, "the rotated pair rolls the Deployment on the target", func() error {
		var now appsv1.Deployment
		if err := remote.Get(ctx, client.ObjectKeyFromObject(&d), &now); err != nil {
			return err
		}
		if now.Spec.Template.Annotations[render.StoreCredsHash] == before {
			return errorf("%s unchanged", render.StoreCredsHash)
		}
		return nil
	})

	managedOnTarget(t, remote)

	must(t, k8s.Delete(ctx, get(t, ns, b.Name)))
	suite.Eventually(t, "children deleted on the target", func() error {
		for _, obj := range children {
			if err := remote.Get(ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
				return errorf("%T %s still on the target (%v)", obj, obj.GetName(), err)
			}
		}
		return nil
	})
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForParent)
}

// managedOnTarget: a managed store whose Barbican targets the remote
// cluster provisions through the instance on the management cluster, waits
// for the instance's CA on the target (where the pods mount it), and writes
// its minted pair there.
func managedOnTarget(t *testing.T, remote client.Client) {
	ctx := context.Background()
	ns := suite.Namespace(t)
	must(t, remote.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	inst := managedInstance(t, ns, "bao", 0)
	b := newBarbican(ns, "barbican")
	b.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "barbican-remote"}
	must(t, k8s.Create(ctx, b))
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "vault", b.Name, inst.name, true)))

	st := waitStore(t, ns, "vault", barbicanv1.ConditionProvisioningReady, metav1.ConditionFalse, barbicanv1.ReasonWaitingForInstanceTLS)
	if c := storeCondition(st, barbicanv1.ConditionProvisioningReady); !strings.Contains(c.Message, "on target cluster barbican-remote") {
		t.Errorf("ProvisioningReady message %q does not name the target", c.Message)
	}
	ca := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: controller.InstanceCASecretName(inst.name)},
		StringData: map[string]string{barbicanv1.KeyCACert: "-----BEGIN CERTIFICATE-----\nnot the instance's\n-----END CERTIFICATE-----\n"}}
	must(t, remote.Create(ctx, ca))
	suite.Eventually(t, "a different CA on the target is refused", func() error {
		var st barbicanv1.BarbicanSecretStore
		if err := k8s.Get(ctx, keyOf(ns, "vault"), &st); err != nil {
			return err
		}
		if c := storeCondition(&st, barbicanv1.ConditionProvisioningReady); c == nil || c.Reason != barbicanv1.ReasonWaitingForInstanceTLS || !strings.Contains(c.Message, "another CA") {
			return errorf("ProvisioningReady %+v", c)
		}
		return nil
	})
	ca.StringData = map[string]string{barbicanv1.KeyCACert: string(inst.srv.CAPEM)}
	must(t, remote.Update(ctx, ca))
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	var minted corev1.Secret
	must(t, remote.Get(ctx, client.ObjectKey{Namespace: ns, Name: controller.ApproleSecretName("vault")}, &minted))
	if len(minted.Data[barbicanv1.KeySecretID]) == 0 {
		t.Errorf("the pair minted on the target is empty: %v", minted.Data)
	}
	if suite.Exists(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: controller.ApproleSecretName("vault")}}) {
		t.Error("the minted pair landed on the management cluster")
	}
	must(t, k8s.Delete(ctx, b))
}
