package workload

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CronJobParams is everything a recurring database maintenance CronJob
// (Glance's db-purge, Barbican's db-clean) is rendered from.
type CronJobParams struct {
	ID   Identity
	Name string // "<cr>-db-purge"
	// Component labels the spawned pods (app.kubernetes.io/component).
	Component     string
	Schedule      string
	Suspend       bool
	ContainerName string
	Image         string
	Script        string // run as /bin/sh -eu -c <Script>, unless Command is set
	// Command is the container's argv, run as it is, in place of Script.
	Command       []string
	Env           []corev1.EnvVar
	ConfigMapName string
	ConfigDir     string
	DBTLS         *DBTLSMount
	RunAsID       int64
	// ActiveDeadlineSeconds turns a wedged run into a Failed Job, so a
	// purge that never finishes is reported like one that fails.
	ActiveDeadlineSeconds int64
	// ConfigSecretName, when set, backs volume "config" with this Secret
	// instead of ConfigMapName (a config that must not sit in a ConfigMap).
	ConfigSecretName string
}

// CronJob renders the CronJob. Runs never overlap (Forbid), history limits
// stay at the API defaults, and no backoffLimit is set: the deadline bounds a
// run, and restartPolicy OnFailure retries inside it. The common labels sit on
// the CronJob and its job template, so the spawned Jobs can be listed by them.
func CronJob(p CronJobParams) *batchv1.CronJob {
	vols, mounts := podVolumes(p.ConfigMapName, p.ConfigSecretName, p.ConfigDir, p.DBTLS)
	podLabels := p.ID.Labels()
	podLabels[ComponentLabel] = p.Component
	var deadline *int64
	if p.ActiveDeadlineSeconds > 0 {
		deadline = new(p.ActiveDeadlineSeconds)
	}
	return &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{
			Name:      p.Name,
			Namespace: p.ID.Namespace,
			Labels:    p.ID.Labels(),
		},
		Spec: batchv1.CronJobSpec{
			Schedule:          p.Schedule,
			Suspend:           new(p.Suspend),
			ConcurrencyPolicy: batchv1.ForbidConcurrent,
			JobTemplate: batchv1.JobTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: p.ID.Labels()},
				Spec: batchv1.JobSpec{
					ActiveDeadlineSeconds: deadline,
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: podLabels},
						Spec: corev1.PodSpec{
							RestartPolicy:   corev1.RestartPolicyOnFailure,
							SecurityContext: PodSecurityContext(p.RunAsID),
							Containers: []corev1.Container{{
								Name:            p.ContainerName,
								Image:           p.Image,
								Command:         cronCommand(p),
								Env:             copyEnv(p.Env),
								VolumeMounts:    mounts,
								SecurityContext: RestrictedContainerSecurityContext(p.RunAsID),
							}},
							Volumes: vols,
						},
					},
				},
			},
		},
	}
}

// cronCommand is p.Command, else the shell running p.Script.
func cronCommand(p CronJobParams) []string {
	if p.Command != nil {
		return append([]string(nil), p.Command...)
	}
	return []string{"/bin/sh", "-eu", "-c", p.Script}
}
