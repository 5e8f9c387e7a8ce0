package standins

import (
	"context"
	"net"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ServedEvery is how often ServedMariaDB checks the server.
const ServedEvery = 2 * time.Second

// ServedMariaDB plays mariadb-operator for MariaDB clusters that the one
// real server of the run stands for: Ready=True/StatefulSetReady while the
// server accepts connections at Addr, Ready=False/StatefulSetNotReady while
// it does not (an outage, a test halting it), checked every ServedEvery as
// mariadb-operator follows its StatefulSet's readiness. It writes only when
// the condition changes.
type ServedMariaDB struct {
	Client client.Client
	Addr   string
}

// Reconcile reports one MariaDB and comes back after ServedEvery.
func (r *ServedMariaDB) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cond := r.condition(ctx)
	_, err := (&StatusReporter[*mariadbv1alpha1.MariaDB]{
		Client: r.Client, Kind: "MariaDB", New: func() *mariadbv1alpha1.MariaDB { return &mariadbv1alpha1.MariaDB{} },
		Done:    "reported the server's readiness",
		Settled: func(o *mariadbv1alpha1.MariaDB) bool { return sameCondition(o.Status.Conditions, cond) },
		Report:  func(o *mariadbv1alpha1.MariaDB, _ metav1.Time) { meta.SetStatusCondition(&o.Status.Conditions, cond) },
	}).Reconcile(ctx, req)
	return ctrl.Result{RequeueAfter: ServedEvery}, err
}

// condition is the Ready condition for the server's state now.
func (r *ServedMariaDB) condition(ctx context.Context) metav1.Condition {
	d := net.Dialer{Timeout: time.Second}
	conn, err := d.DialContext(ctx, "tcp", r.Addr)
	if err != nil {
		return metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse,
			Reason: mariadbv1alpha1.ConditionReasonStatefulSetNotReady, Message: "Not ready"}
	}
	_ = conn.Close()
	return metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue,
		Reason: mariadbv1alpha1.ConditionReasonStatefulSetReady, Message: "Running"}
}

func sameCondition(conds []metav1.Condition, want metav1.Condition) bool {
	c := meta.FindStatusCondition(conds, want.Type)
	return c != nil && c.Status == want.Status && c.Reason == want.Reason
}

// SetupWithManager watches MariaDBs.
func (r *ServedMariaDB) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&mariadbv1alpha1.MariaDB{}).Named(controllerName("MariaDB")).Complete(r)
}
