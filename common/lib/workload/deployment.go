package workload

import (
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Topology keys of the default spread constraints.
const (
	ZoneTopologyKey     = "topology.kubernetes.io/zone"
	HostnameTopologyKey = "kubernetes.io/hostname"
)

// DeploymentParams is everything the API Deployment is rendered from.
type DeploymentParams struct {
	ID            Identity
	ContainerName string
	Image         string // full reference
	Command       []string
	Env           []corev1.EnvVar
	Port          int32
	PortName      string
	ProbePath     string
	ConfigMapName string // mounted read-only as volume "config"
	ConfigDir     string
	DBTLS         *DBTLSMount                // nil when database TLS is off
	Spec          *serviceapi.DeploymentSpec // may be nil
	// Autoscaling leaves replicas nil so the HPA owns the live count.
	Autoscaling bool
	// PodAnnotations with an empty value are omitted, so a pass that could not
	// compute a digest does not roll the pods.
	PodAnnotations map[string]string
	RunAsID        int64 // fsGroup, runAsUser and runAsGroup
	// ExtraVolumes follow config and db-tls; ExtraMounts follow the API
	// container's config and db-tls mounts (further config roots, scratch space).
	ExtraVolumes []corev1.Volume
	ExtraMounts  []corev1.VolumeMount
	// Sidecars run beside the API container, after it, in this order.
	Sidecars []corev1.Container
	// ConfigSecretName, when set, backs volume "config" with this Secret
	// instead of ConfigMapName (a config that must not sit in a ConfigMap).
	ConfigSecretName string
}

// Deployment renders the API Deployment named after the instance.
func Deployment(p DeploymentParams) *appsv1.Deployment {
	var replicas *int32
	if !p.Autoscaling {
		replicas = new(p.Spec.EffectiveReplicas())
	}
	vols, mounts := podVolumes(p.ConfigMapName, p.ConfigSecretName, p.ConfigDir, p.DBTLS)
	for i := range p.ExtraVolumes {
		vols = append(vols, *p.ExtraVolumes[i].DeepCopy())
	}
	for i := range p.ExtraMounts {
		mounts = append(mounts, *p.ExtraMounts[i].DeepCopy())
	}

	var resources corev1.ResourceRequirements
	var priorityClass string
	if p.Spec != nil {
		p.Spec.Resources.DeepCopyInto(&resources)
		if p.Spec.PriorityClassName != nil {
			priorityClass = *p.Spec.PriorityClassName
		}
	}

	container := corev1.Container{
		Name:    p.ContainerName,
		Image:   p.Image,
		Command: append([]string(nil), p.Command...),
		Ports: []corev1.ContainerPort{{
			Name:          p.PortName,
			ContainerPort: p.Port,
			Protocol:      corev1.ProtocolTCP,
		}},
		Env:          copyEnv(p.Env),
		Resources:    resources,
		VolumeMounts: mounts,
		LivenessProbe: &corev1.Probe{
			ProbeHandler:        httpGet(p.ProbePath, p.Port),
			InitialDelaySeconds: 15,
			PeriodSeconds:       20,
		},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler:        httpGet(p.ProbePath, p.Port),
			InitialDelaySeconds: 10,
			PeriodSeconds:       15,
			TimeoutSeconds:      10,
			FailureThreshold:    3,
		},
		Lifecycle: &corev1.Lifecycle{
			// The sleep keeps serving while endpoints drop the terminating pod.
			PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{
				Command: []string{"/bin/sh", "-c", "sleep " + strconv.FormatInt(p.Spec.EffectivePreStop(), 10)},
			}},
		},
		SecurityContext: RestrictedContainerSecurityContext(p.RunAsID),
	}

	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name:      p.ID.Instance,
			Namespace: p.ID.Namespace,
			Labels:    p.ID.PodLabels(),
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: replicas,
			Selector: &metav1.LabelSelector{MatchLabels: p.ID.SelectorLabels()},
			Strategy: strategy(p.Spec),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{
					Labels:      p.ID.PodLabels(),
					Annotations: nonEmpty(p.PodAnnotations),
				},
				Spec: corev1.PodSpec{
					SecurityContext:               PodSecurityContext(p.RunAsID),
					TerminationGracePeriodSeconds: new(p.Spec.EffectiveGrace()),
					PriorityClassName:             priorityClass,
					TopologySpreadConstraints:     spread(p.ID, p.Spec),
					Containers:                    containers(container, p.Sidecars),
					Volumes:                       vols,
				},
			},
		},
	}
}

// containers copies the sidecars, so the rendered object never aliases them.
func containers(api corev1.Container, sidecars []corev1.Container) []corev1.Container {
	out := make([]corev1.Container, 0, 1+len(sidecars))
	out = append(out, api)
	for i := range sidecars {
		out = append(out, *sidecars[i].DeepCopy())
	}
	return out
}

func httpGet(path string, port int32) corev1.ProbeHandler {
	return corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
		Path: path,
		Port: intstr.FromInt32(port),
	}}
}

// strategy defaults to a surge-only rollout so capacity never drops below the
// desired replica count.
func strategy(s *serviceapi.DeploymentSpec) appsv1.DeploymentStrategy {
	if s != nil && s.Strategy != nil {
		return *s.Strategy.DeepCopy()
	}
	return appsv1.DeploymentStrategy{
		Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{
			MaxUnavailable: new(intstr.FromInt32(0)),
			MaxSurge:       new(intstr.FromInt32(1)),
		},
	}
}

// spread distinguishes nil (render zone + hostname defaults) from an explicit
// empty list (the user disabled spreading).
func spread(id Identity, s *serviceapi.DeploymentSpec) []corev1.TopologySpreadConstraint {
	if s == nil || s.TopologySpreadConstraints == nil {
		out := make([]corev1.TopologySpreadConstraint, 0, 2)
		for _, key := range []string{ZoneTopologyKey, HostnameTopologyKey} {
			out = append(out, corev1.TopologySpreadConstraint{
				MaxSkew:           1,
				TopologyKey:       key,
				WhenUnsatisfiable: corev1.ScheduleAnyway,
				LabelSelector:     &metav1.LabelSelector{MatchLabels: id.SelectorLabels()},
			})
		}
		return out
	}
	if len(s.TopologySpreadConstraints) == 0 {
		return nil
	}
	out := make([]corev1.TopologySpreadConstraint, len(s.TopologySpreadConstraints))
	for i := range s.TopologySpreadConstraints {
		s.TopologySpreadConstraints[i].DeepCopyInto(&out[i])
	}
	return out
}

// nonEmpty drops empty values and returns nil when nothing is left.
func nonEmpty(in map[string]string) map[string]string {
	var out map[string]string
	for k, v := range in {
		if v == "" {
			continue
		}
		if out == nil {
			out = make(map[string]string, len(in))
		}
		out[k] = v
	}
	return out
}

// SelectorChanged says why a live Deployment cannot be updated to desired:
// its selector is immutable. "" when the selectors match.
func SelectorChanged(live, desired *appsv1.Deployment) string {
	if equality.Semantic.DeepEqual(live.Spec.Selector, desired.Spec.Selector) {
		return ""
	}
	return fmt.Sprintf("selector %s is immutable, want %s",
		metav1.FormatLabelSelector(live.Spec.Selector), metav1.FormatLabelSelector(desired.Spec.Selector))
}
