package barbican_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestTargetCluster: a second local control plane, registered by a
// kubeconfig Secret, receives the children of a Barbican that names it:
// the db-sync Job runs there for real, the API pods run there (the store's
// secret ID from the environment) and turn the Deployment Ready, the
// db-clean CronJob is there. The BarbicanSecretStore stays on the
// management cluster and reads its AppRole pair and CA on the target,
// where the children are; its projection is observed in the target's
// Deployment and config Secret. Deregistration turns the Barbican and its
// store TargetClusterUnavailable.
func TestTargetCluster(t *testing.T) {
	tg := suite.StartTarget(t, &env, "e2e-barbican-target", barbicanv1.AddToScheme)
	s := newSiteOn(t, tg.C, "2025.2", func(b *barbicanv1.Barbican) {
		b.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "target"}
	})
	s.storeCondition("vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	s.condition(conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced)
	s.condition(conditions.TypeDeploymentReady, metav1.ConditionTrue, conditions.ReasonDeploymentReady)
	s.storeCondition("vault", barbicanv1.ConditionConfigProjected, metav1.ConditionTrue, barbicanv1.ReasonConfigProjected)
	for _, obj := range []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-connection"}},
		&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-sync"}},
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-clean"}},
	} {
		if err := tg.C.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			t.Errorf("%T %s missing on the target: %v", obj, obj.GetName(), err)
		}
		if err := env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
			t.Errorf("%T %s on the management cluster (%v)", obj, obj.GetName(), err)
		}
	}
	for _, name := range []string{"bao-approle", "bao-ca"} {
		if err := env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: name}, &corev1.Secret{}); !apierrors.IsNotFound(err) {
			t.Errorf("the store's Secret %s is on the management cluster too (%v): the store must have read it on the target", name, err)
		}
	}
	tables, err := env.DB.Query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + s.Schema + "' AND table_name = 'secrets'")
	poll.Must(t, err)
	if tables != "1" {
		t.Errorf("the db-sync Job on the target did not create %s.secrets", s.Schema)
	}

	poll.Must(t, env.K8s.Delete(s.Ctx, tg.Registration))
	s.condition(conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
	s.storeCondition("vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
}
