package standins_test

import (
	"context"
	"net"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/e2e/standins"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// A MariaDB follows its server: Ready=True/StatefulSetReady while something
// accepts connections at the address, Ready=False/StatefulSetNotReady once
// nothing does, True again when it is back; a pass over an unchanged state
// writes nothing, and every pass asks to come back.
func TestServedMariaDBFollowsItsServer(t *testing.T) {
	const ns, name = "served", "mariadb"
	ctx := context.Background()
	k := newClient(t, nil)
	must(t, k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	must(t, testenv.MariaDB(ctx, k, ns, name, false))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	addr := l.Addr().String()
	var writes writeCounter
	r := &standins.ServedMariaDB{Client: newClient(t, writes.wrap), Addr: addr}

	check := func(status metav1.ConditionStatus, reason string, wantWrites int) {
		t.Helper()
		res, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}})
		must(t, err)
		if res.RequeueAfter != standins.ServedEvery {
			t.Errorf("RequeueAfter %s, want %s", res.RequeueAfter, standins.ServedEvery)
		}
		var m mariadbv1alpha1.MariaDB
		must(t, k.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, &m))
		c := meta.FindStatusCondition(m.Status.Conditions, "Ready")
		if c == nil || c.Status != status || c.Reason != reason {
			t.Fatalf("Ready = %+v, want %s/%s", c, status, reason)
		}
		if got := writes.take(); len(got) != wantWrites {
			t.Fatalf("%d writes, want %d: %v", len(got), wantWrites, got)
		}
	}
	check(metav1.ConditionTrue, mariadbv1alpha1.ConditionReasonStatefulSetReady, 1)
	check(metav1.ConditionTrue, mariadbv1alpha1.ConditionReasonStatefulSetReady, 0)
	must(t, l.Close())
	check(metav1.ConditionFalse, mariadbv1alpha1.ConditionReasonStatefulSetNotReady, 1)
	check(metav1.ConditionFalse, mariadbv1alpha1.ConditionReasonStatefulSetNotReady, 0)
	l, err = net.Listen("tcp", addr)
	must(t, err)
	defer func() { _ = l.Close() }()
	check(metav1.ConditionTrue, mariadbv1alpha1.ConditionReasonStatefulSetReady, 1)
}
