package placement_test

import (
	"fmt"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	"github.com/c5c3/openstack-operators/e2e/cluster"
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
	target, err := cluster.Up("e2e-placement-target")
	poll.Must(t, err)
	t.Cleanup(func() {
		var code int
		suite.KeepOrDown(target, &code)
	})
	poll.Must(t, suite.InstallCRDs(target, false))
	eso, err := suite.StartESO(target)
	poll.Must(t, err)
	t.Cleanup(func() { _ = eso.Stop(10 * time.Second) })
	remote, err := client.New(target.Config, client.Options{Scheme: operator.NewScheme(placementv1.AddToScheme)})
	poll.Must(t, err)
	poll.Must(t, suite.PrepareCluster(t.Context(), remote))
	m, err := suite.StartMachine(t.Context(), target.Config, env.DB, env.Profiles)
	poll.Must(t, err)
	t.Cleanup(m.Stop)

	kc, err := cluster.EmbeddedKubeconfig(target.Config)
	poll.Must(t, err)
	reg := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: clustersNamespace, Name: "target",
			Labels: map[string]string{targetcluster.RegistrationLabel: targetcluster.RegistrationLabelValue}},
		Data: map[string][]byte{targetcluster.KubeconfigKey: kc},
	}
	poll.Must(t, env.K8s.Create(t.Context(), reg))

	s := newSite(t, remote, "2025.2", func(p *placementv1.Placement) {
		p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: "target"}
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
