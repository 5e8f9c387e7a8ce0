package workload

import (
	corev1 "k8s.io/api/core/v1"
)

// Volume names shared by the Deployment and the db-sync Job.
const (
	ConfigVolumeName = "config"
	DBTLSVolumeName  = "db-tls"
)

// dbTLSFileMode keeps the client key unreadable to anyone but the owner; the
// pod fsGroup still grants the service user access.
const dbTLSFileMode int32 = 0o400

// DBTLSMount describes the database TLS material projected into a pod.
type DBTLSMount struct {
	CASecret         string // provides ca.crt; skipped when empty
	ClientCertSecret string // provides tls.crt and tls.key; skipped when empty
	MountPath        string
}

// PodSecurityContext is the pod-level part of the restricted profile; fsGroup
// makes mounted Secrets readable by the non-root service user.
func PodSecurityContext(id int64) *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{
		FSGroup:        new(id),
		RunAsNonRoot:   new(true),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

// RestrictedContainerSecurityContext satisfies the "restricted" Pod Security
// Standard with a fixed UID/GID and a read-only root filesystem.
func RestrictedContainerSecurityContext(id int64) *corev1.SecurityContext {
	return &corev1.SecurityContext{
		RunAsUser:                new(id),
		RunAsGroup:               new(id),
		RunAsNonRoot:             new(true),
		AllowPrivilegeEscalation: new(false),
		ReadOnlyRootFilesystem:   new(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

// ConfigVolume exposes the rendered config ConfigMap as volume "config".
func ConfigVolume(configMapName string) corev1.Volume {
	return corev1.Volume{
		Name: ConfigVolumeName,
		VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: configMapName},
			},
		},
	}
}

// ConfigSecretVolume exposes a rendered config Secret as volume "config",
// for a service whose config carries something a ConfigMap must not hold.
func ConfigSecretVolume(secretName string) corev1.Volume {
	return corev1.Volume{
		Name:         ConfigVolumeName,
		VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secretName}},
	}
}

// configVolume is the Secret-backed config volume when secretName is set,
// else the ConfigMap-backed one.
func configVolume(configMapName, secretName string) corev1.Volume {
	if secretName != "" {
		return ConfigSecretVolume(secretName)
	}
	return ConfigVolume(configMapName)
}

// ConfigVolumeMount mounts the config volume read-only as the whole config dir.
func ConfigVolumeMount(configDir string) corev1.VolumeMount {
	return corev1.VolumeMount{Name: ConfigVolumeName, MountPath: configDir, ReadOnly: true}
}

// DBTLSVolume projects only the three well-known keys, so extra Secret keys
// never land in the pod.
func DBTLSVolume(m DBTLSMount) corev1.Volume {
	var sources []corev1.VolumeProjection
	if m.CASecret != "" {
		sources = append(sources, secretProjection(m.CASecret, "ca.crt"))
	}
	if m.ClientCertSecret != "" {
		sources = append(sources, secretProjection(m.ClientCertSecret, "tls.crt", "tls.key"))
	}
	return corev1.Volume{
		Name: DBTLSVolumeName,
		VolumeSource: corev1.VolumeSource{
			Projected: &corev1.ProjectedVolumeSource{
				Sources:     sources,
				DefaultMode: new(dbTLSFileMode),
			},
		},
	}
}

// DBTLSVolumeMount mounts the db-tls volume read-only at m.MountPath.
func DBTLSVolumeMount(m DBTLSMount) corev1.VolumeMount {
	return corev1.VolumeMount{Name: DBTLSVolumeName, MountPath: m.MountPath, ReadOnly: true}
}

func secretProjection(name string, keys ...string) corev1.VolumeProjection {
	items := make([]corev1.KeyToPath, 0, len(keys))
	for _, k := range keys {
		items = append(items, corev1.KeyToPath{Key: k, Path: k})
	}
	return corev1.VolumeProjection{
		Secret: &corev1.SecretProjection{
			LocalObjectReference: corev1.LocalObjectReference{Name: name},
			Items:                items,
		},
	}
}

// podVolumes returns the config volume (from configSecret when set, else
// from configMapName) plus db-tls when set, with mounts in the same order.
func podVolumes(configMapName, configSecret, configDir string, tls *DBTLSMount) ([]corev1.Volume, []corev1.VolumeMount) {
	vols := []corev1.Volume{configVolume(configMapName, configSecret)}
	mounts := []corev1.VolumeMount{ConfigVolumeMount(configDir)}
	if tls != nil {
		vols = append(vols, DBTLSVolume(*tls))
		mounts = append(mounts, DBTLSVolumeMount(*tls))
	}
	return vols, mounts
}

// copyEnv keeps the caller's slice from aliasing the rendered object.
func copyEnv(env []corev1.EnvVar) []corev1.EnvVar {
	if env == nil {
		return nil
	}
	out := make([]corev1.EnvVar, len(env))
	for i := range env {
		env[i].DeepCopyInto(&out[i])
	}
	return out
}
