package render

import (
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// manage is glance-manage reading the rendered config root.
const manage = "glance-manage --config-dir " + ConfigDir

// DBSyncScript migrates the schema and loads the metadata definitions the
// image ships.
const DBSyncScript = manage + " db sync && " + manage + " db load_metadefs --path " + MetadefsDir

// dbPurgeDeadline bounds a purge run, so a wedged one ends as a Failed Job.
const dbPurgeDeadline = 3600

// dbPurgeMaxRows bounds each purge statement.
const dbPurgeMaxRows = 1000

// PhaseScript runs one expand-migrate-contract phase: expand, migrate or contract.
func PhaseScript(phase string) string { return manage + " db " + phase }

// DBPurgeScript purges rows soft-deleted more than retentionDays ago, and
// the images table too when purgeImagesTable is set.
func DBPurgeScript(retentionDays int32, purgeImagesTable bool) string {
	args := " --age_in_days " + strconv.Itoa(int(retentionDays)) + " --max_rows " + strconv.Itoa(dbPurgeMaxRows)
	s := manage + " db purge" + args
	if purgeImagesTable {
		s += " && " + manage + " db purge_images_table" + args
	}
	return s
}

// DBSyncJob is the <cr>-db-sync Job for the given config ConfigMap and
// database target digest.
func DBSyncJob(g *glancev1.Glance, configMap, dbTarget string) *batchv1.Job {
	return migrationJob(g, DBSyncJobName(g), "db-sync", DBSyncScript, configMap, dbTarget)
}

// PhaseJob is the <cr>-db-<phase> Job of a release upgrade (expand, migrate
// or contract), on spec.image: the new release's code.
func PhaseJob(g *glancev1.Glance, phase, configMap, dbTarget string) *batchv1.Job {
	return migrationJob(g, PhaseJobName(g, phase), "db-"+phase, PhaseScript(phase), configMap, dbTarget)
}

// migrationJob mounts db-tls too: the Jobs use the same DSN as the API,
// which names the TLS files.
func migrationJob(g *glancev1.Glance, name, container, script, configMap, dbTarget string) *batchv1.Job {
	return workload.Job(workload.JobParams{
		ID:             Identity(g),
		Name:           name,
		ContainerName:  container,
		Image:          g.Spec.Image.Reference(),
		Script:         script,
		Env:            []corev1.EnvVar{workload.DSNEnv(EnvDSN, g.Name)},
		ConfigMapName:  configMap,
		ConfigDir:      ConfigDir,
		DBTLS:          dbTLS(g),
		RunAsID:        RunAsID,
		PodAnnotations: map[string]string{DBTargetHash: dbTarget},
	})
}

// DBPurgeCronJob is the <cr>-db-purge CronJob with the settings
// EffectiveDBPurge resolves.
func DBPurgeCronJob(g *glancev1.Glance, configMap string) *batchv1.CronJob {
	p := EffectiveDBPurge(g)
	return workload.CronJob(workload.CronJobParams{
		ID:                    Identity(g),
		Name:                  CronJobName(g),
		Component:             ComponentDBPurge,
		Schedule:              p.Schedule,
		Suspend:               p.Suspend,
		ContainerName:         ComponentDBPurge,
		Image:                 g.Spec.Image.Reference(),
		Script:                DBPurgeScript(p.RetentionDays, p.PurgeImagesTable),
		Env:                   []corev1.EnvVar{workload.DSNEnv(EnvDSN, g.Name)},
		ConfigMapName:         configMap,
		ConfigDir:             ConfigDir,
		DBTLS:                 dbTLS(g),
		RunAsID:               RunAsID,
		ActiveDeadlineSeconds: dbPurgeDeadline,
	})
}
