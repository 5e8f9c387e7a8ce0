// Package render turns a Glance and its backends into what the operator
// writes: config files, command lines and child objects. Every function is
// pure: inputs in, object or bytes out.
package render

import (
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Identity and paths inside the API, sidecar, Job and CronJob containers.
const (
	ManagedBy = "glance-operator"
	// ConfigDir is the config ConfigMap mount, the first --config-dir.
	ConfigDir = "/etc/glance/glance-api.conf.d/"
	// BackendsDir is the backends Secret mount, the second --config-dir.
	BackendsDir = "/etc/glance/backends.conf.d/"
	DBTLSDir    = "/etc/glance/db-tls/"
	EnvDSN      = "OS_DATABASE__CONNECTION"

	PasteFile   = ConfigDir + KeyPasteINI
	PolicyFile  = ConfigDir + KeyPolicy
	LoggingFile = ConfigDir + KeyLogging

	StagingDir    = "/var/lib/glance/staging"
	TasksWorkDir  = "/var/lib/glance/tasks-work"
	ImageCacheDir = "/var/lib/glance/image-cache"
	// WSGIFile is the image-shipped shim that takes --config-dir through
	// --pyargv; glance's stock WSGI module ignores sys.argv.
	WSGIFile = "/var/lib/openstack/bin/glance-wsgi-api"
	// MetadefsDir holds the metadata definitions db load_metadefs reads.
	MetadefsDir = "/var/lib/openstack/etc/glance/metadefs"
	// RunAsID is the glance user and group of the image.
	RunAsID = 42415
)

// Container, volume and annotation names.
const (
	ContainerName    = "glance-api"
	SidecarName      = "cache-maintenance"
	BackendsVolume   = "backends"
	StagingVolume    = "staging"
	TasksWorkVolume  = "tasks-work"
	ImageCacheVolume = "image-cache"
	ComponentDBPurge = "db-purge"
	AuthtokenHash    = glancev1.AnnotationDomain + "/authtoken-hash"
	DBConnHash       = glancev1.AnnotationDomain + "/db-connection-hash"
	// DBTargetHash on migration pod templates digests the DSN without its
	// password, so another server, schema or account re-runs the Job while a
	// rotated password does not.
	DBTargetHash = glancev1.AnnotationDomain + "/db-target-hash"
	apiPortName  = "glance-api"
	probePath    = "/healthcheck"
)

// Name suffixes of the children.
const (
	configSuffix   = "-config"
	backendsSuffix = "-backends"
	dbSyncSuffix   = "-db-sync"
	dbPurgeSuffix  = "-db-purge"
)

// Upgrade phase Job suffixes: the phase argument of PhaseJobName and PhaseJob.
const (
	PhaseExpand   = "expand"
	PhaseMigrate  = "migrate"
	PhaseContract = "contract"
)

// MaxNameLength is the longest Glance name admitted on create: the CronJob
// name limit (52) minus "-db-purge".
const MaxNameLength = 52 - len(dbPurgeSuffix)

// Identity of the Glance's children.
func Identity(g *glancev1.Glance) workload.Identity {
	return workload.Identity{Service: glancev1.ServiceName, Instance: g.Name, Namespace: g.Namespace, ManagedBy: ManagedBy}
}

// ConfigBase is the base name of the content-addressed config ConfigMaps.
func ConfigBase(g *glancev1.Glance) string { return g.Name + configSuffix }

// BackendsBase is the base name of the content-addressed backends Secrets.
func BackendsBase(g *glancev1.Glance) string { return g.Name + backendsSuffix }

// DBSyncJobName is <cr>-db-sync.
func DBSyncJobName(g *glancev1.Glance) string { return g.Name + dbSyncSuffix }

// PhaseJobName is <cr>-db-<phase> for expand, migrate and contract.
func PhaseJobName(g *glancev1.Glance, phase string) string { return g.Name + "-db-" + phase }

// CronJobName is <cr>-db-purge. Names longer than MaxNameLength, admitted
// before the bound existed, keep 34 characters plus a hash of the whole name
// so the result stays unique and within the CronJob limit.
func CronJobName(g *glancev1.Glance) string { return workload.CronJobName(g.Name, dbPurgeSuffix) }
