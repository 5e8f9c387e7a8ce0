package render

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Digests are the rollout annotations; an empty one is omitted.
type Digests struct {
	Authtoken, DBConnection string
}

// Sidecar resources: the loop is a shell, du and two short Python runs.
var (
	sidecarCPURequest    = resource.MustParse("25m")
	sidecarMemoryRequest = resource.MustParse("64Mi")
	sidecarMemoryLimit   = resource.MustParse("256Mi")
)

// Deployment is the API Deployment for the given config ConfigMap, backends
// Secret and digests. Both config roots are mounted read-only; staging and
// tasks-work carry the staging bound, so changing it rolls the pods.
func Deployment(g *glancev1.Glance, configMap, backendsSecret string, d Digests) *appsv1.Deployment {
	staging := EffectiveStagingLimit(g)
	vols := []corev1.Volume{
		{Name: BackendsVolume, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: backendsSecret}}},
		emptyDir(StagingVolume, staging),
		emptyDir(TasksWorkVolume, staging),
	}
	mounts := []corev1.VolumeMount{
		{Name: BackendsVolume, MountPath: BackendsDir, ReadOnly: true},
		{Name: StagingVolume, MountPath: StagingDir},
		{Name: TasksWorkVolume, MountPath: TasksWorkDir},
	}
	var sidecars []corev1.Container
	if g.Spec.ImageCache != nil {
		size, _ := EffectiveImageCache(g)
		vols = append(vols, emptyDir(ImageCacheVolume, &size))
		mounts = append(mounts, imageCacheMount())
		sidecars = append(sidecars, cacheSidecar(g))
	}
	return workload.Deployment(workload.DeploymentParams{
		ID:            Identity(g),
		ContainerName: ContainerName,
		Image:         g.Spec.Image.Reference(),
		Command:       Command(g),
		Env: []corev1.EnvVar{
			workload.DSNEnv(EnvDSN, g.Name),
			workload.PasswordEnv(g.Spec.ServiceUser),
		},
		Port:           glancev1.APIPort,
		PortName:       apiPortName,
		ProbePath:      probePath,
		ConfigMapName:  configMap,
		ConfigDir:      ConfigDir,
		DBTLS:          dbTLS(g),
		Spec:           g.Spec.Deployment,
		Autoscaling:    g.Spec.Autoscaling != nil,
		PodAnnotations: map[string]string{AuthtokenHash: d.Authtoken, DBConnHash: d.DBConnection},
		RunAsID:        RunAsID,
		ExtraVolumes:   vols,
		ExtraMounts:    mounts,
		Sidecars:       sidecars,
	})
}

// cacheSidecar prunes and cleans the image cache beside glance-api. It has
// no env (the cache tools touch neither database nor Keystone) and no probes:
// the loop never exits, and a failing pass only logs.
func cacheSidecar(g *glancev1.Glance) corev1.Container {
	_, interval := EffectiveImageCache(g)
	return corev1.Container{
		Name:    SidecarName,
		Image:   g.Spec.Image.Reference(),
		Command: []string{"/bin/sh", "-eu", "-c", CacheMaintenanceScript(ImageCacheMaxSize(g), intervalSeconds(interval))},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: sidecarCPURequest, corev1.ResourceMemory: sidecarMemoryRequest},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: sidecarMemoryLimit},
		},
		VolumeMounts:    []corev1.VolumeMount{workload.ConfigVolumeMount(ConfigDir), imageCacheMount()},
		SecurityContext: workload.RestrictedContainerSecurityContext(RunAsID),
	}
}

func imageCacheMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: ImageCacheVolume, MountPath: ImageCacheDir}
}

// emptyDir is a scratch volume; a nil limit leaves it unbounded.
func emptyDir(name string, limit *resource.Quantity) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: limit}}}
}

// dbTLS is the database TLS material at DBTLSDir, nil when TLS is off.
func dbTLS(g *glancev1.Glance) *workload.DBTLSMount {
	return workload.DBTLS(g.Spec.Database.TLS, DBTLSDir)
}
