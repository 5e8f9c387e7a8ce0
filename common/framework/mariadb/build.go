// Package mariadb provisions a service's schema on a mariadb-operator MariaDB
// (Database, User, Grant) and tears those CRs down from the finalizer.
package mariadb

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Request is what one CR asks of the MariaDB cluster. Every CR is named after
// the owner (Name) in its namespace.
type Request struct {
	Namespace, Name string
	Database        serviceapi.DatabaseSpec
	// MaxUserConnections is left to mariadb-operator's default when zero.
	MaxUserConnections int32
}

func (r Request) meta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: r.Name, Namespace: r.Namespace}
}

func (r Request) ref() mariadbv1alpha1.MariaDBRef {
	return mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: r.Database.ClusterRef.Name}}
}

// BuildDatabase returns the Database CR: the schema in utf8.
func BuildDatabase(r Request) *mariadbv1alpha1.Database {
	return &mariadbv1alpha1.Database{
		ObjectMeta: r.meta(),
		Spec: mariadbv1alpha1.DatabaseSpec{
			MariaDBRef:   r.ref(),
			Name:         r.Database.Database,
			CharacterSet: "utf8",
			Collate:      "utf8_general_ci",
		},
	}
}

// BuildUser returns the User CR whose password comes from the DB Secret.
func BuildUser(r Request) *mariadbv1alpha1.User {
	return &mariadbv1alpha1.User{
		ObjectMeta: r.meta(),
		Spec: mariadbv1alpha1.UserSpec{
			MariaDBRef: r.ref(),
			PasswordSecretKeyRef: &mariadbv1alpha1.SecretKeySelector{
				LocalObjectReference: mariadbv1alpha1.LocalObjectReference{Name: r.Database.SecretRef.Name},
				Key:                  "password",
			},
			MaxUserConnections: r.MaxUserConnections,
		},
	}
}

// BuildGrant returns the Grant of every privilege on the schema to the User.
func BuildGrant(r Request) *mariadbv1alpha1.Grant {
	return &mariadbv1alpha1.Grant{
		ObjectMeta: r.meta(),
		Spec: mariadbv1alpha1.GrantSpec{
			MariaDBRef: r.ref(),
			Privileges: []string{"ALL PRIVILEGES"},
			Database:   r.Database.Database,
			Table:      "*",
			Username:   r.Name,
		},
	}
}
