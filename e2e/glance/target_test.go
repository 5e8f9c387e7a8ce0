package glance_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestTargetCluster: a second local control plane, registered by a
// kubeconfig Secret, receives the children of a Glance that names it: the
// db-sync Job runs there for real, the API pods run there and turn the
// Deployment Ready, the db-purge CronJob is there. The GlanceBackends stay
// on the management cluster and read their credentials Secret on the
// target. Deregistration turns the Glance and its backends
// TargetClusterUnavailable.
func TestTargetCluster(t *testing.T) {
	tg := suite.StartTarget(t, &env, "e2e-glance-target", glancev1.AddToScheme)
	s := newSiteOn(t, tg.C, "2025.2", func(g *glancev1.Glance) {
		g.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "target"}
	})
	s.condition(conditions.TypeDatabaseReady, metav1.ConditionTrue, conditions.ReasonDatabaseSynced)
	s.condition(conditions.TypeDeploymentReady, metav1.ConditionTrue, conditions.ReasonDeploymentReady)
	for name := range s.buckets {
		s.backendCondition(name, glancev1.ConditionCredentialsReady, metav1.ConditionTrue, "")
	}
	for _, obj := range []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}},
		&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-sync"}},
		&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-purge"}},
	} {
		if err := tg.C.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			t.Errorf("%T %s missing on the target: %v", obj, obj.GetName(), err)
		}
		if err := env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
			t.Errorf("%T %s on the management cluster (%v)", obj, obj.GetName(), err)
		}
	}
	if n := s.sql("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + s.Schema + "' AND table_name = 'images'"); n != "1" {
		t.Errorf("the db-sync Job on the target did not create %s.images", s.Schema)
	}

	poll.Must(t, env.K8s.Delete(s.Ctx, tg.Registration))
	s.condition(conditions.TypeSecretsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
	for name := range s.buckets {
		s.backendCondition(name, glancev1.ConditionCredentialsReady, metav1.ConditionFalse, conditions.ReasonTargetClusterUnavailable)
	}
}
