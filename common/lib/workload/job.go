package workload

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PodSpecHashAnnotation carries the db-sync rerun key on the Job.
const PodSpecHashAnnotation = "operators.c5c3.io/pod-spec-hash"

// dbSyncBackoffLimit bounds retries of a migration that keeps failing.
const dbSyncBackoffLimit int32 = 4

// JobParams is everything the db-sync Job is rendered from.
type JobParams struct {
	ID            Identity
	Name          string // "<cr>-db-sync"
	ContainerName string
	Image         string
	Script        string // run as /bin/sh -eu -c <Script>
	Env           []corev1.EnvVar
	ConfigMapName string
	ConfigDir     string
	DBTLS         *DBTLSMount
	RunAsID       int64
	// PodAnnotations are part of the template, hence of the rerun key.
	PodAnnotations map[string]string
	// ConfigSecretName, when set, backs volume "config" with this Secret
	// instead of ConfigMapName (a config that must not sit in a ConfigMap).
	ConfigSecretName string
}

// Job renders the db-sync Job. Its pod template carries no labels, so the API
// Service, PDB and NetworkPolicy never select migration pods. The template's
// PodTemplateHash is stamped into PodSpecHashAnnotation as the rerun key.
func Job(p JobParams) *batchv1.Job {
	vols, mounts := podVolumes(p.ConfigMapName, p.ConfigSecretName, p.ConfigDir, p.DBTLS)
	tmpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Annotations: nonEmpty(p.PodAnnotations)},
		Spec: corev1.PodSpec{
			RestartPolicy:   corev1.RestartPolicyNever,
			SecurityContext: PodSecurityContext(p.RunAsID),
			Containers: []corev1.Container{{
				Name:            p.ContainerName,
				Image:           p.Image,
				Command:         []string{"/bin/sh", "-eu", "-c", p.Script},
				Env:             copyEnv(p.Env),
				VolumeMounts:    mounts,
				SecurityContext: RestrictedContainerSecurityContext(p.RunAsID),
			}},
			Volumes: vols,
		},
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name:        p.Name,
			Namespace:   p.ID.Namespace,
			Labels:      p.ID.Labels(),
			Annotations: map[string]string{PodSpecHashAnnotation: PodTemplateHash(tmpl)},
		},
		Spec: batchv1.JobSpec{
			BackoffLimit: new(dbSyncBackoffLimit),
			Template:     tmpl,
		},
	}
}

// PodTemplateHash is the hex SHA-256 of the template's JSON encoding, which is
// deterministic: struct fields keep declaration order and map keys are sorted.
func PodTemplateHash(t corev1.PodTemplateSpec) string {
	b, err := json.Marshal(t)
	if err != nil {
		// Unreachable for API types; still yield a stable, distinct key.
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
