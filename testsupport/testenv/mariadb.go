package testenv

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MariaDBDatabase is a handle (name and namespace only) on the
// mariadb-operator Database an operator manages, for a test to Get, wait on
// or check the absence of.
func MariaDBDatabase(ns, name string) *mariadbv1alpha1.Database {
	return &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// MariaDBUser is MariaDBDatabase for the User.
func MariaDBUser(ns, name string) *mariadbv1alpha1.User {
	return &mariadbv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}

// MariaDBGrant is MariaDBDatabase for the Grant.
func MariaDBGrant(ns, name string) *mariadbv1alpha1.Grant {
	return &mariadbv1alpha1.Grant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
}
