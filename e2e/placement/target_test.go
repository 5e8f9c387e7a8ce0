package placement_test

import (
	"fmt"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestTargetCluster: a second local control plane, registered by a
// kubeconfig Secret, receives every child of a Placement that names it (the
// db-sync Job runs for real there too); deregistration reports
// TargetClusterUnavailable; deletion afterwards releases the finalizer with
// RemoteChildrenAbandoned once --abandon-grace (20 s here) has passed.
func TestTargetCluster(t *testing.T) {
	tg := suite.StartTarget(t, &env, "e2e-placement-target", placementv1.AddToScheme)
	remote, reg := tg.C, tg.Registration

	s := newSite(t, remote, "2025.2", func(p *placementv1.Placement) {
		p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "target"}
	})
	s.condition(placementv1.ConditionDatabaseReady, metav1.ConditionTrue, "DatabaseSynced")
	s.condition(placementv1.ConditionDeploymentReady, metav1.ConditionTrue, "DeploymentReady")
	for _, obj := range []client.Object{
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
		&mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
	} {
		if !s.exists(obj) {
			t.Errorf("%T %s missing on the target", obj, obj.GetName())
		}
		if err := env.K8s.Get(s.ctx, client.ObjectKeyFromObject(obj), obj); err == nil {
			t.Errorf("%T %s landed on the management cluster", obj, obj.GetName())
		}
	}
	if !s.schemaExists() {
		t.Errorf("schema %s not created through the target's Database", s.schema)
	}

	poll.Must(t, env.K8s.Delete(s.ctx, reg))
	s.condition(placementv1.ConditionSecretsReady, metav1.ConditionFalse, "TargetClusterUnavailable")

	poll.Must(t, env.K8s.Delete(s.ctx, s.placement()))
	poll.Until(t, waitLong, func() error {
		if err := env.K8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name}, &placementv1.Placement{}); err == nil {
			return fmt.Errorf("placement still held")
		}
		return nil
	})
	if s.events()["RemoteChildrenAbandoned"] == 0 {
		t.Errorf("no RemoteChildrenAbandoned event; have %v", s.events())
	}
	if !s.exists(&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}}) {
		t.Errorf("the abandoned Deployment should stay on the target")
	}
}
