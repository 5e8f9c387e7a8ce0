package standins

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewMariaDB plays mariadb-operator for MariaDB clusters: Ready=True with the
// reason and message mariadb-operator sets once the StatefulSet is ready. No
// StatefulSet is created; nothing listens on the MariaDB Service.
func NewMariaDB(c client.Client) *ReadyMarker[*mariadbv1alpha1.MariaDB] {
	return &ReadyMarker[*mariadbv1alpha1.MariaDB]{
		Client:     c,
		Kind:       "MariaDB",
		New:        func() *mariadbv1alpha1.MariaDB { return &mariadbv1alpha1.MariaDB{} },
		Conditions: func(o *mariadbv1alpha1.MariaDB) *[]metav1.Condition { return &o.Status.Conditions },
		Reason:     mariadbv1alpha1.ConditionReasonStatefulSetReady,
		Message:    "Running",
	}
}
