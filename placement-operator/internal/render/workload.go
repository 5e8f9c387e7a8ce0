package render

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Names and identity of a Placement's children.
const (
	ContainerName = "placement-api"
	JobContainer  = "db-sync"
	ManagedBy     = "placement-operator"
	EnvConfigDir  = "OS_PLACEMENT_CONFIG_DIR"
	EnvDSN        = "OS_PLACEMENT_DATABASE__CONNECTION"
	RunAsID       = 42424
	AuthtokenHash = placementv1.AnnotationDomain + "/authtoken-hash"
	DBConnHash    = placementv1.AnnotationDomain + "/db-connection-hash"
	// DBTargetHash on the db-sync pod template digests the DSN without its
	// password (dsn.Target), so another server, schema or account re-runs
	// the migration while a rotated password does not.
	DBTargetHash = placementv1.AnnotationDomain + "/db-target-hash"
	dbSyncSuffix = "-db-sync"
	configSuffix = "-config"
	apiPortName  = "placement-api"
	probePath    = "/"
)

// DBSyncScript runs the three migration commands; the brace group scopes the
// exit-1 (warnings) tolerance to placement-status alone.
const DBSyncScript = "placement-manage --config-file " + ConfigFile + " db sync && \\\n" +
	"placement-manage --config-file " + ConfigFile + " db online_data_migrations && \\\n" +
	"{ placement-status --config-file " + ConfigFile + " upgrade check || [ $? -eq 1 ]; }"

// Identity of the Placement's children.
func Identity(p *placementv1.Placement) workload.Identity {
	return workload.Identity{Service: placementv1.ServiceName, Instance: p.Name, Namespace: p.Namespace, ManagedBy: ManagedBy}
}

// DBSyncJobName is <cr>-db-sync.
func DBSyncJobName(p *placementv1.Placement) string { return p.Name + dbSyncSuffix }

// ConfigBase is the base name of the content-addressed ConfigMaps.
func ConfigBase(p *placementv1.Placement) string { return p.Name + configSuffix }

// Digests are the rollout annotations; an empty one is omitted.
type Digests struct {
	Authtoken, DBConnection string
}

// Command is the API container's uwsgi command line.
func Command(p *placementv1.Placement) []string {
	var u *serviceapi.UWSGISpec
	if p.Spec.APIServer != nil {
		u = p.Spec.APIServer.UWSGI
	}
	return workload.UWSGIArgs(placementv1.APIPort, WSGIFile, u)
}

// Deployment is the API Deployment for the given config generation and digests.
func Deployment(p *placementv1.Placement, configMap string, d Digests) *appsv1.Deployment {
	env := []corev1.EnvVar{
		{Name: EnvConfigDir, Value: ConfigDir},
		workload.DSNEnv(EnvDSN, p.Name),
		workload.PasswordEnv(p.Spec.ServiceUser),
	}
	return workload.Deployment(workload.DeploymentParams{
		ID:             Identity(p),
		ContainerName:  ContainerName,
		Image:          p.Spec.Image.Reference(),
		Command:        Command(p),
		Env:            env,
		Port:           placementv1.APIPort,
		PortName:       apiPortName,
		ProbePath:      probePath,
		ConfigMapName:  configMap,
		ConfigDir:      ConfigDir,
		DBTLS:          workload.DBTLS(p.Spec.Database.TLS, DBTLSDir),
		Spec:           p.Spec.Deployment,
		Autoscaling:    p.Spec.Autoscaling != nil,
		PodAnnotations: map[string]string{AuthtokenHash: d.Authtoken, DBConnHash: d.DBConnection},
		RunAsID:        RunAsID,
	})
}

// DBSyncJob is the migration Job for the given config generation and
// database target digest.
func DBSyncJob(p *placementv1.Placement, configMap, dbTarget string) *batchv1.Job {
	return workload.Job(workload.JobParams{
		ID:             Identity(p),
		Name:           DBSyncJobName(p),
		ContainerName:  JobContainer,
		Image:          p.Spec.Image.Reference(),
		Script:         DBSyncScript,
		Env:            []corev1.EnvVar{workload.DSNEnv(EnvDSN, p.Name)},
		ConfigMapName:  configMap,
		ConfigDir:      ConfigDir,
		DBTLS:          workload.DBTLS(p.Spec.Database.TLS, DBTLSDir),
		RunAsID:        RunAsID,
		PodAnnotations: map[string]string{DBTargetHash: dbTarget},
	})
}
