package render

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Digests are the rollout annotations' hex SHA-256 values; an empty one is
// omitted, so a pass that could not compute it rolls nothing.
type Digests struct {
	Authtoken, DBConnection, StoreCredentials string
}

// StoreMount is what the API pod takes from the default store: its
// credentials Secret (the secret ID's env source) and its CA Secret ("" =
// none, system trust).
type StoreMount struct {
	CredentialsSecret, CASecret string
}

// Probe settings: the API answers /healthcheck without a token or a database
// round trip; the startup probe gives a cold start 300 s.
const (
	apiPortName                   = "barbican-api"
	probePath                     = "/healthcheck"
	startupPeriodSeconds          = 10
	startupFailureThreshold       = 30
	startupTimeoutSeconds         = 8
	caFileMode              int32 = 0o444
)

// Deployment is the API Deployment mounting configSecret read-only at
// ConfigDir, the default store's CA at CADir (when store.CASecret is set)
// and the database TLS files at DBTLSDir (when on). The DSN, the service
// password and the store's secret ID arrive as environment variables only.
func Deployment(b *barbicanv1.Barbican, configSecret string, store StoreMount, d Digests) *appsv1.Deployment {
	var vols []corev1.Volume
	var mounts []corev1.VolumeMount
	if store.CASecret != "" {
		vols = append(vols, caVolume(store.CASecret))
		mounts = append(mounts, corev1.VolumeMount{Name: CAVolume, MountPath: CADir, ReadOnly: true})
	}
	dep := workload.Deployment(workload.DeploymentParams{
		ID:               Identity(b),
		ContainerName:    ContainerName,
		Image:            b.Spec.Image.Reference(),
		Command:          Argv(b),
		Env:              apiEnv(b, store),
		Port:             barbicanv1.APIPort,
		PortName:         apiPortName,
		ProbePath:        probePath,
		ConfigSecretName: configSecret,
		ConfigDir:        ConfigDir,
		DBTLS:            dbTLS(b),
		Spec:             b.Spec.Deployment,
		Autoscaling:      b.Spec.Autoscaling != nil,
		PodAnnotations: map[string]string{
			AuthtokenHash:  d.Authtoken,
			DBConnHash:     d.DBConnection,
			StoreCredsHash: d.StoreCredentials,
		},
		RunAsID:      RunAsID,
		ExtraVolumes: vols,
		ExtraMounts:  mounts,
	})
	api := &dep.Spec.Template.Spec.Containers[0]
	api.StartupProbe = &corev1.Probe{
		ProbeHandler:     *api.LivenessProbe.ProbeHandler.DeepCopy(),
		PeriodSeconds:    startupPeriodSeconds,
		TimeoutSeconds:   startupTimeoutSeconds,
		FailureThreshold: startupFailureThreshold,
	}
	return dep
}

// apiEnv is the DSN, the service password and, with a credentials Secret,
// the AppRole secret ID.
func apiEnv(b *barbicanv1.Barbican, store StoreMount) []corev1.EnvVar {
	env := []corev1.EnvVar{
		workload.DSNEnv(EnvDSN, b.Name),
		workload.PasswordEnv(b.Spec.ServiceUser),
	}
	if store.CredentialsSecret != "" {
		env = append(env, workload.SecretEnv(EnvSecretID, store.CredentialsSecret, barbicanv1.KeySecretID))
	}
	return env
}

// caVolume projects only ca.crt of the store's CA Secret, world-readable:
// a CA bundle is public.
func caVolume(secret string) corev1.Volume {
	return corev1.Volume{Name: CAVolume, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
		SecretName:  secret,
		Items:       []corev1.KeyToPath{{Key: barbicanv1.KeyCACert, Path: barbicanv1.KeyCACert}},
		DefaultMode: new(caFileMode),
	}}}
}

// dbTLS is the database TLS material at DBTLSDir, nil when TLS is off.
func dbTLS(b *barbicanv1.Barbican) *workload.DBTLSMount {
	return workload.DBTLS(b.Spec.Database.TLS, DBTLSDir)
}
