package render

import (
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// DBSyncScript is one alembic upgrade to head. No --config-file:
// barbican-manage finds barbican.conf in ConfigDir, as the API does.
const DBSyncScript = "barbican-manage db upgrade"

// dbCleanDeadline bounds a clean run, so a wedged one ends as a Failed Job.
const dbCleanDeadline = 3600

// DBCleanCommand removes rows soft-deleted more than retentionDays ago; it
// also soft-deletes expired secrets and removes unreferenced projects when
// asked. A retention below one day (admission refuses it) renders the
// default rather than cleaning everything soft-deleted.
func DBCleanCommand(retentionDays int32, softDeleteExpired, cleanUnassociated bool) []string {
	if retentionDays < 1 {
		retentionDays = barbicanv1.DefaultDBCleanRetentionDays
	}
	argv := []string{"barbican-manage", "db", "clean", "--min-days", strconv.Itoa(int(retentionDays))}
	if softDeleteExpired {
		argv = append(argv, "--soft-delete-expired-secrets")
	}
	if cleanUnassociated {
		argv = append(argv, "--clean-unassociated-projects")
	}
	return argv
}

// DBSyncJob is the <name>-db-sync Job on spec.image with the API's config
// Secret, DSN and database TLS; dbTargetHash keys its reruns.
func DBSyncJob(b *barbicanv1.Barbican, configSecret, dbTargetHash string) *batchv1.Job {
	return workload.Job(workload.JobParams{
		ID:               Identity(b),
		Name:             DBSyncJobName(b),
		ContainerName:    DBSyncContainer,
		Image:            b.Spec.Image.Reference(),
		Script:           DBSyncScript,
		Env:              []corev1.EnvVar{workload.DSNEnv(EnvDSN, b.Name)},
		ConfigSecretName: configSecret,
		ConfigDir:        ConfigDir,
		DBTLS:            dbTLS(b),
		RunAsID:          RunAsID,
		PodAnnotations:   map[string]string{DBTargetHash: dbTargetHash},
	})
}

// DBCleanCronJob is the DBCleanName CronJob with spec.dbClean resolved at
// render time. suspend is the caller's verdict (spec.dbClean.suspend or the
// migration pause); spec.dbClean.suspend suspends it regardless.
func DBCleanCronJob(b *barbicanv1.Barbican, configSecret string, suspend bool) *batchv1.CronJob {
	c := b.Spec.DBClean
	return workload.CronJob(workload.CronJobParams{
		ID:                    Identity(b),
		Name:                  DBCleanName(b),
		Component:             ComponentDBClean,
		Schedule:              c.EffectiveSchedule(),
		Suspend:               suspend || c.Suspended(),
		ContainerName:         ComponentDBClean,
		Image:                 b.Spec.Image.Reference(),
		Command:               DBCleanCommand(c.EffectiveRetentionDays(), c.SoftDeletesExpired(), c.CleansUnassociated()),
		Env:                   []corev1.EnvVar{workload.DSNEnv(EnvDSN, b.Name)},
		ConfigSecretName:      configSecret,
		ConfigDir:             ConfigDir,
		DBTLS:                 dbTLS(b),
		RunAsID:               RunAsID,
		ActiveDeadlineSeconds: dbCleanDeadline,
	})
}
