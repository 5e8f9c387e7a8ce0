// Package render turns a Barbican and its credential-ready secret stores into
// what the operator writes: barbican.conf, barbican-api-paste.ini and
// policy.yaml, the uwsgi command line and the API Deployment, db-sync Job and
// db-clean CronJob. Every function is pure: inputs in, object or bytes out.
package render

import (
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// ManagedBy is the app.kubernetes.io/managed-by value of every child.
const ManagedBy = "barbican-operator"

// Paths inside the API, Job and CronJob containers.
const (
	// ConfigDir is the config Secret mount: barbican finds barbican.conf and
	// the paste file here through oslo.config's fixed search path.
	ConfigDir = "/etc/barbican"
	// CADir holds the default store's CA bundle (ca.crt).
	CADir = "/etc/barbican-secret-store-ca"
	// DBTLSDir holds the database TLS files the DSN names.
	DBTLSDir = "/etc/barbican-db-tls/"
	// CAFile is [vault_plugin] ssl_ca_crt_file.
	CAFile = CADir + "/" + barbicanv1.KeyCACert
	// PolicyFile is [oslo_policy] policy_file.
	PolicyFile = ConfigDir + "/" + KeyPolicy
	// RunAsID is the barbican user and group of the image (the kolla ID).
	RunAsID = 42403
)

// Data keys of the config Secret.
const (
	KeyConf   = "barbican.conf"
	KeyPaste  = "barbican-api-paste.ini"
	KeyPolicy = "policy.yaml"
)

// Container, volume and component names.
const (
	ContainerName    = "barbican-api"
	ConfigVolume     = workload.ConfigVolumeName
	CAVolume         = "secret-store-ca"
	ComponentDBClean = "db-clean"
	// DBSyncContainer is the db-sync Job's container.
	DBSyncContainer = "db-sync"
)

// Environment variables and pod-template annotations.
const (
	// EnvSecretID carries the default store's AppRole secret ID into
	// [vault_plugin] approle_secret_id; it is never rendered into a file.
	EnvSecretID = "OS_VAULT_PLUGIN__APPROLE_SECRET_ID"
	// EnvDSN carries the DSN into [database] connection.
	EnvDSN = "OS_DATABASE__CONNECTION"
	// AuthtokenHash digests the service-user password.
	AuthtokenHash = barbicanv1.AnnotationDomain + "/authtoken-hash"
	// DBConnHash digests the assembled DSN.
	DBConnHash = barbicanv1.AnnotationDomain + "/db-connection-hash"
	// StoreCredsHash digests the default store's AppRole secret ID, so a
	// re-mint rolls the API pods.
	StoreCredsHash = barbicanv1.AnnotationDomain + "/secret-store-credentials-hash"
	// DBTargetHash on the db-sync pod template digests the DSN without its
	// password, so another server, schema or account re-runs the Job while a
	// rotated password does not.
	DBTargetHash = barbicanv1.AnnotationDomain + "/db-target-hash"
)

// Name suffixes of the children.
const (
	configSuffix  = "-config"
	dbSyncSuffix  = "-db-sync"
	dbCleanSuffix = "-db-clean"
)

// Identity of the Barbican's children.
func Identity(b *barbicanv1.Barbican) workload.Identity {
	return workload.Identity{Service: barbicanv1.ServiceName, Instance: b.Name, Namespace: b.Namespace, ManagedBy: ManagedBy}
}

// ConfigBase is the base name of the content-hashed config Secrets: <name>-config.
func ConfigBase(b *barbicanv1.Barbican) string { return b.Name + configSuffix }

// DBSyncJobName is <name>-db-sync.
func DBSyncJobName(b *barbicanv1.Barbican) string { return b.Name + dbSyncSuffix }

// DBCleanName is <name>-db-clean. A name longer than MaxNameLength (43),
// admitted before the bound existed, becomes <prefix>-<8 hex of its
// SHA-256>-db-clean within the 52-character CronJob limit.
func DBCleanName(b *barbicanv1.Barbican) string {
	return workload.CronJobName(b.Name, dbCleanSuffix)
}
