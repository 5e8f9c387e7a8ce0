package glance_test

import (
	"fmt"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestCredentialRotation: a new service-user password rolls the API
// Deployment exactly once; the new glance-api serves and the Glance is
// Ready again.
func TestCredentialRotation(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.RotationRollsOnce(t, s.Site, waitLong, s.ready)
}

// TestDeletionCleansUp: deleting the Glance drops its schema and account
// on the server (the MariaDB CRs go first), garbage collection removes
// the children (the db-purge CronJob and the backends Secrets too), and
// its metric series disappear. The GlanceBackends, which it does not own,
// stay.
func TestDeletionCleansUp(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.DeletionCleansUp(t, s.Site, env.K8s, env.DB, suite.Deletion{
		CR: s.glance(), Kind: "Glance", Series: "glance", Metrics: env.Op.Metrics,
		Children: []client.Object{&batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name + "-db-purge"}}},
	}, waitLong)
	for name := range s.buckets {
		var b glancev1.GlanceBackend
		if err := env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: name}, &b); err != nil {
			t.Errorf("backend %s: %v (a backend is the user's, not the Glance's)", name, err)
		}
	}
}

// TestHPAAndNetworkPolicy: both children follow the spec on and off; the
// fail-closed policy lets the API pods reach the S3 server's port, where
// the backends store, and the Glance is Ready with both on.
func TestHPAAndNetworkPolicy(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	suite.HPAAndNetworkPolicy(t, s.Site, waitLong,
		func(a *serviceapi.AutoscalingSpec, np *serviceapi.NetworkPolicySpec) {
			s.update(func(g *glancev1.Glance) { g.Spec.Autoscaling, g.Spec.NetworkPolicy = a, np })
		},
		func(typ, reason string) { s.condition(typ, metav1.ConditionTrue, reason) },
		func(np *networkingv1.NetworkPolicy) {
			if !suite.EgressTo(np, int32(env.S3.Port)) {
				t.Errorf("NetworkPolicy egress %+v does not allow the S3 port %d", np.Spec.Egress, env.S3.Port)
			}
			s.ready()
			s.egressFollowsBackends(np)
		})
}

// egressFollowsBackends attaches a backend on another S3 endpoint (port
// 9443, nothing listens there: the operator does not dial S3) and checks
// that the policy's egress gains its port, then loses it again once the
// backend is deleted.
func (s *site) egressFollowsBackends(np *networkingv1.NetworkPolicy) {
	s.T.Helper()
	other := s.backend("elsewhere", s.Name+"-elsewhere", "s3", false)
	other.Spec.S3.Host = "http://127.0.0.1:9443"
	poll.Must(s.T, env.K8s.Create(s.Ctx, other))
	wantPort := func(want bool) {
		poll.Until(s.T, waitLong, func() error {
			if err := env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(np), np); err != nil {
				return err
			}
			if suite.EgressTo(np, 9443) != want || !suite.EgressTo(np, int32(env.S3.Port)) {
				return fmt.Errorf("egress %+v: port 9443 allowed %v, want %v (and the S3 port %d)", np.Spec.Egress, !want, want, env.S3.Port)
			}
			return nil
		})
	}
	wantPort(true)
	poll.Must(s.T, env.K8s.Delete(s.Ctx, other))
	wantPort(false)
}

// ready waits until the Glance is Ready.
func (s *site) ready() {
	s.T.Helper()
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
}

// TestHTTPRoute: the Glance's HTTPRoute waits for the Gateway API, then
// follows its parent's Accepted and goes when spec.gateway is unset.
func TestHTTPRoute(t *testing.T) {
	const host = "images.example.org"
	s := newSite(t, "2025.2", func(g *glancev1.Glance) {
		g.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: host, ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	})
	suite.HTTPRoute(t, s.Site, &env, host, waitLong,
		func() { s.update(func(g *glancev1.Glance) { g.Spec.Gateway = nil }) },
		func(typ string, status metav1.ConditionStatus, reason string) { s.condition(typ, status, reason) }, s.ready)
}
