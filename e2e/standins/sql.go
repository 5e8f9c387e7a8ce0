package standins

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// mariadb-operator reports a created SQL object as Ready=True, reason and
// message "Created"; the stand-ins do the same without running any SQL.
const sqlMessage = "Created"

// NewDatabase plays mariadb-operator for Database objects.
func NewDatabase(c client.Client) *ReadyMarker[*mariadbv1alpha1.Database] {
	return &ReadyMarker[*mariadbv1alpha1.Database]{
		Client:     c,
		Kind:       "Database",
		New:        func() *mariadbv1alpha1.Database { return &mariadbv1alpha1.Database{} },
		Conditions: func(o *mariadbv1alpha1.Database) *[]metav1.Condition { return &o.Status.Conditions },
		Reason:     mariadbv1alpha1.ConditionReasonCreated,
		Message:    sqlMessage,
	}
}

// NewUser plays mariadb-operator for User objects.
func NewUser(c client.Client) *ReadyMarker[*mariadbv1alpha1.User] {
	return &ReadyMarker[*mariadbv1alpha1.User]{
		Client:     c,
		Kind:       "User",
		New:        func() *mariadbv1alpha1.User { return &mariadbv1alpha1.User{} },
		Conditions: func(o *mariadbv1alpha1.User) *[]metav1.Condition { return &o.Status.Conditions },
		Reason:     mariadbv1alpha1.ConditionReasonCreated,
		Message:    sqlMessage,
	}
}

// NewGrant plays mariadb-operator for Grant objects.
func NewGrant(c client.Client) *ReadyMarker[*mariadbv1alpha1.Grant] {
	return &ReadyMarker[*mariadbv1alpha1.Grant]{
		Client:     c,
		Kind:       "Grant",
		New:        func() *mariadbv1alpha1.Grant { return &mariadbv1alpha1.Grant{} },
		Conditions: func(o *mariadbv1alpha1.Grant) *[]metav1.Condition { return &o.Status.Conditions },
		Reason:     mariadbv1alpha1.ConditionReasonCreated,
		Message:    sqlMessage,
	}
}
