package controller_test

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

// egressPorts lists every TCP port the Barbican's NetworkPolicy lets the
// pods reach.
func egressPorts(t *testing.T, ns string) []int32 {
	t.Helper()
	var np networkingv1.NetworkPolicy
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "barbican"}, &np))
	var out []int32
	for _, r := range np.Spec.Egress {
		for _, p := range r.Ports {
			if p.Port != nil {
				out = append(out, p.Port.IntVal)
			}
		}
	}
	return out
}

func portOf(t *testing.T, raw string) int32 {
	t.Helper()
	u, err := url.Parse(raw)
	must(t, err)
	p, err := strconv.Atoi(u.Port())
	must(t, err)
	return int32(p)
}

// OpenBao egress follows the last valid projection: a store pointed at
// another server while the projection is invalid opens nothing, and the
// recorded host keeps its port so the running pods still reach their store.
func TestNetworkPolicyEgressFollowsTheRecordedStores(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	b := newBarbican(ns, "barbican")
	b.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "gateway"}},
	}}}
	_, srv := toReady(t, ns, b)
	vault := portOf(t, srv.URL)
	waitCondition(t, ns, "barbican", conditions.TypeNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyReady")
	if ports := egressPorts(t, ns); !slices.Contains(ports, vault) {
		t.Fatalf("egress ports %v lack the store's %d", ports, vault)
	}

	const elsewhere = "https://203.0.113.7:18443"
	updateStore(t, ns, "vault", func(s *barbicanv1.BarbicanSecretStore) {
		s.Spec.IsDefault = false
		s.Spec.OpenBao.Server.URL = elsewhere
	})
	waitCondition(t, ns, "barbican", barbicanv1.ConditionSecretStoresReady, metav1.ConditionFalse, barbicanv1.ReasonNoDefaultSecretStore)
	poke(t, ns, "barbican")
	waitCondition(t, ns, "barbican", conditions.TypeNetworkPolicyReady, metav1.ConditionTrue, "NetworkPolicyReady")
	ports := egressPorts(t, ns)
	if !slices.Contains(ports, vault) {
		t.Errorf("egress ports %v dropped the recorded store's %d", ports, vault)
	}
	if slices.Contains(ports, 18443) {
		t.Errorf("egress ports %v opened the port of a store that is not projected", ports)
	}
}

// The managed MariaDB User's max_user_connections is sized from the CR's
// topology: (pods + 1) x processes x threads + 2, pods from the HPA's
// maximum when there is one.
func TestMaxUserConnectionsFollowsTheTopology(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))
	userConns := func(want int32) {
		t.Helper()
		suite.Eventually(t, "max_user_connections "+strconv.Itoa(int(want)), func() error {
			var u mariadbv1alpha1.User
			if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "barbican"}, &u); err != nil {
				return err
			}
			if u.Spec.MaxUserConnections != want {
				return errorf("max_user_connections = %d", u.Spec.MaxUserConnections)
			}
			return nil
		})
	}
	userConns(10) // (3 + 1) x 2 x 1 + 2
	update(t, ns, "barbican", func(b *barbicanv1.Barbican) {
		b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 4, Threads: 2}}
		b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 6, TargetCPUUtilization: ptr(int32(80))}
	})
	userConns(58) // (6 + 1) x 4 x 2 + 2
}

func ptr[T any](v T) *T { return &v }
