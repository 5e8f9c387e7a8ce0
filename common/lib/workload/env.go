package workload

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// DSNSecretKey is the key of the DSN in the <cr>-db-connection Secret.
const DSNSecretKey = "connection"

// EnvKeystonePassword carries the service-user password into every service's
// [keystone_authtoken] (oslo.config reads OS_<SECTION>__<KEY>).
const EnvKeystonePassword = "OS_KEYSTONE_AUTHTOKEN__PASSWORD"

// DBConnectionSecretName is the derived Secret holding a CR's DSN.
func DBConnectionSecretName(cr string) string { return cr + "-db-connection" }

// SecretEnv is an environment variable read from a Secret key.
func SecretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
		LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key}}}
}

// DSNEnv is the DSN environment variable envName, from the CR's <cr>-db-connection.
func DSNEnv(envName, cr string) corev1.EnvVar {
	return SecretEnv(envName, DBConnectionSecretName(cr), DSNSecretKey)
}

// PasswordEnv is the service-user password from its Secret.
func PasswordEnv(u serviceapi.ServiceUserSpec) corev1.EnvVar {
	return SecretEnv(EnvKeystonePassword, u.SecretRef.Name, u.PasswordKey())
}

// DBTLS is the database TLS material mounted at dir, nil when TLS is off.
func DBTLS(t *serviceapi.DatabaseTLS, dir string) *DBTLSMount {
	if !t.Enabled() {
		return nil
	}
	m := &DBTLSMount{MountPath: dir}
	if t.CABundleSecretRef != nil {
		m.CASecret = t.CABundleSecretRef.Name
	}
	if t.ClientCertSecretRef != nil {
		m.ClientCertSecret = t.ClientCertSecretRef.Name
	}
	return m
}
