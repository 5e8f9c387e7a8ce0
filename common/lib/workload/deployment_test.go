package workload

import (
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

var testID = Identity{Service: "placement", Instance: "p1", Namespace: "openstack", ManagedBy: "placement-operator"}

var (
	podLabels = map[string]string{
		"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
		"app.kubernetes.io/managed-by": "placement-operator", "app.kubernetes.io/component": "api",
	}
	selLabels = map[string]string{"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1"}
)

func wantContainerSC() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		RunAsUser: new(int64(42424)), RunAsGroup: new(int64(42424)), RunAsNonRoot: new(true),
		AllowPrivilegeEscalation: new(false), ReadOnlyRootFilesystem: new(true),
		Capabilities:   &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

func wantPodSC() *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{
		FSGroup: new(int64(42424)), RunAsNonRoot: new(true),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

func wantConfigVolume() corev1.Volume {
	return corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "p1-config-abcd1234"}},
	}}
}

func wantDBTLSVolume() corev1.Volume {
	return corev1.Volume{Name: "db-tls", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: new(int32(0o400)),
		Sources: []corev1.VolumeProjection{
			{Secret: &corev1.SecretProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: "db-ca"},
				Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{Secret: &corev1.SecretProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: "db-client"},
				Items:                []corev1.KeyToPath{{Key: "tls.crt", Path: "tls.crt"}, {Key: "tls.key", Path: "tls.key"}},
			}},
		},
	}}}
}

func baseParams() DeploymentParams {
	return DeploymentParams{
		ID:            testID,
		ContainerName: "placement-api",
		Image:         "registry.example/placement:2025.2",
		Command:       []string{"uwsgi", "--http", ":8778"},
		Env:           []corev1.EnvVar{{Name: "OS_PLACEMENT_CONFIG_DIR", Value: "/etc/placement"}},
		Port:          8778,
		PortName:      "placement-api",
		ProbePath:     "/",
		ConfigMapName: "p1-config-abcd1234",
		ConfigDir:     "/etc/placement",
		RunAsID:       42424,
	}
}

func TestDeploymentDefaults(t *testing.T) {
	p := baseParams()
	p.PodAnnotations = map[string]string{"placement.c5c3.io/authtoken-hash": "abc", "placement.c5c3.io/db-connection-hash": ""}

	probe := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromInt32(8778)}}
	want := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: podLabels},
		Spec: appsv1.DeploymentSpec{
			Replicas: new(int32(3)),
			Selector: &metav1.LabelSelector{MatchLabels: selLabels},
			Strategy: appsv1.DeploymentStrategy{
				Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{
					MaxUnavailable: new(intstr.FromInt32(0)), MaxSurge: new(intstr.FromInt32(1)),
				},
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{
					Labels:      podLabels,
					Annotations: map[string]string{"placement.c5c3.io/authtoken-hash": "abc"},
				},
				Spec: corev1.PodSpec{
					SecurityContext:               wantPodSC(),
					TerminationGracePeriodSeconds: new(int64(30)),
					TopologySpreadConstraints: []corev1.TopologySpreadConstraint{
						{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.ScheduleAnyway,
							LabelSelector: &metav1.LabelSelector{MatchLabels: selLabels}},
						{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
							LabelSelector: &metav1.LabelSelector{MatchLabels: selLabels}},
					},
					Containers: []corev1.Container{{
						Name:    "placement-api",
						Image:   "registry.example/placement:2025.2",
						Command: []string{"uwsgi", "--http", ":8778"},
						Ports:   []corev1.ContainerPort{{Name: "placement-api", ContainerPort: 8778, Protocol: corev1.ProtocolTCP}},
						Env:     []corev1.EnvVar{{Name: "OS_PLACEMENT_CONFIG_DIR", Value: "/etc/placement"}},
						VolumeMounts: []corev1.VolumeMount{
							{Name: "config", MountPath: "/etc/placement", ReadOnly: true},
						},
						LivenessProbe:  &corev1.Probe{ProbeHandler: probe, InitialDelaySeconds: 15, PeriodSeconds: 20},
						ReadinessProbe: &corev1.Probe{ProbeHandler: probe, InitialDelaySeconds: 10, PeriodSeconds: 15, TimeoutSeconds: 10, FailureThreshold: 3},
						Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{
							Exec: &corev1.ExecAction{Command: []string{"/bin/sh", "-c", "sleep 5"}},
						}},
						SecurityContext: wantContainerSC(),
					}},
					Volumes: []corev1.Volume{wantConfigVolume()},
				},
			},
		},
	}
	if diff := cmp.Diff(want, Deployment(p)); diff != "" {
		t.Errorf("Deployment mismatch (-want +got):\n%s", diff)
	}
}

func TestDeploymentCustomised(t *testing.T) {
	custom := []corev1.TopologySpreadConstraint{{
		MaxSkew: 2, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: maps.Clone(selLabels)},
	}}
	surge := &appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: new(intstr.FromString("50%"))},
	}
	res := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
	}
	p := baseParams()
	p.ProbePath = "/healthcheck"
	p.Port, p.PortName = 9292, "glance-api"
	p.Autoscaling = true
	p.PodAnnotations = map[string]string{"a": "", "b": ""}
	p.DBTLS = &DBTLSMount{CASecret: "db-ca", ClientCertSecret: "db-client", MountPath: "/etc/placement-db-tls/"}
	p.Spec = &serviceapi.DeploymentSpec{
		Replicas:                      5,
		Resources:                     res,
		TerminationGracePeriodSeconds: new(int64(60)),
		PreStopSleepSeconds:           new(int64(12)),
		Strategy:                      surge,
		TopologySpreadConstraints:     custom,
		PriorityClassName:             new("openstack-high"),
	}

	got := Deployment(p)
	probe := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthcheck", Port: intstr.FromInt32(9292)}}
	c := got.Spec.Template.Spec.Containers[0]
	checks := []struct {
		name      string
		want, got any
	}{
		{"replicas nil under autoscaling", (*int32)(nil), got.Spec.Replicas},
		{"strategy as given", *surge, got.Spec.Strategy},
		{"annotations all empty => nil map", map[string]string(nil), got.Spec.Template.Annotations},
		{"grace", new(int64(60)), got.Spec.Template.Spec.TerminationGracePeriodSeconds},
		{"priority class", "openstack-high", got.Spec.Template.Spec.PriorityClassName},
		{"custom spread", custom, got.Spec.Template.Spec.TopologySpreadConstraints},
		{"resources", res, c.Resources},
		{"port", []corev1.ContainerPort{{Name: "glance-api", ContainerPort: 9292, Protocol: corev1.ProtocolTCP}}, c.Ports},
		{"liveness", &corev1.Probe{ProbeHandler: probe, InitialDelaySeconds: 15, PeriodSeconds: 20}, c.LivenessProbe},
		{"readiness", &corev1.Probe{ProbeHandler: probe, InitialDelaySeconds: 10, PeriodSeconds: 15, TimeoutSeconds: 10, FailureThreshold: 3}, c.ReadinessProbe},
		{"preStop", []string{"/bin/sh", "-c", "sleep 12"}, c.Lifecycle.PreStop.Exec.Command},
		{"volumes", []corev1.Volume{wantConfigVolume(), wantDBTLSVolume()}, got.Spec.Template.Spec.Volumes},
		{"mounts", []corev1.VolumeMount{
			{Name: "config", MountPath: "/etc/placement", ReadOnly: true},
			{Name: "db-tls", MountPath: "/etc/placement-db-tls/", ReadOnly: true},
		}, c.VolumeMounts},
		{"container security", wantContainerSC(), c.SecurityContext},
		{"pod security", wantPodSC(), got.Spec.Template.Spec.SecurityContext},
		{"labels", podLabels, got.Labels},
		{"selector", &metav1.LabelSelector{MatchLabels: selLabels}, got.Spec.Selector},
	}
	for _, ck := range checks {
		if diff := cmp.Diff(ck.want, ck.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", ck.name, diff)
		}
	}

	// The rendered object must not alias the spec it came from.
	got.Spec.Template.Spec.TopologySpreadConstraints[0].LabelSelector.MatchLabels["x"] = "y"
	got.Spec.Strategy.RollingUpdate.MaxSurge.StrVal = "x"
	got.Spec.Template.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU] = resource.MustParse("1")
	_, spreadAliased := p.Spec.TopologySpreadConstraints[0].LabelSelector.MatchLabels["x"]
	_, resAliased := p.Spec.Resources.Limits[corev1.ResourceCPU]
	if spreadAliased || resAliased || p.Spec.Strategy.RollingUpdate.MaxSurge.StrVal != "50%" {
		t.Error("Deployment aliases DeploymentSpec")
	}
}

func TestDeploymentSpread(t *testing.T) {
	custom := []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "rack"}}
	tests := []struct {
		name     string
		spec     *serviceapi.DeploymentSpec
		wantKeys []string
	}{
		{name: "nil spec", spec: nil, wantKeys: []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}},
		{name: "nil list", spec: &serviceapi.DeploymentSpec{}, wantKeys: []string{"topology.kubernetes.io/zone", "kubernetes.io/hostname"}},
		{name: "empty list disables", spec: &serviceapi.DeploymentSpec{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{}}, wantKeys: nil},
		{name: "custom", spec: &serviceapi.DeploymentSpec{TopologySpreadConstraints: custom}, wantKeys: []string{"rack"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseParams()
			p.Spec = tt.spec
			var keys []string
			for _, c := range Deployment(p).Spec.Template.Spec.TopologySpreadConstraints {
				keys = append(keys, c.TopologyKey)
			}
			if diff := cmp.Diff(tt.wantKeys, keys); diff != "" {
				t.Errorf("spread keys (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeploymentReplicas(t *testing.T) {
	tests := []struct {
		name        string
		spec        *serviceapi.DeploymentSpec
		autoscaling bool
		want        *int32
	}{
		{name: "nil spec defaults to 3", want: new(int32(3))},
		{name: "zero defaults to 3", spec: &serviceapi.DeploymentSpec{}, want: new(int32(3))},
		{name: "explicit", spec: &serviceapi.DeploymentSpec{Replicas: 1}, want: new(int32(1))},
		{name: "autoscaling leaves nil", spec: &serviceapi.DeploymentSpec{Replicas: 4}, autoscaling: true, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseParams()
			p.Spec, p.Autoscaling = tt.spec, tt.autoscaling
			if diff := cmp.Diff(tt.want, Deployment(p).Spec.Replicas); diff != "" {
				t.Errorf("replicas (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSelectorChanged(t *testing.T) {
	id := Identity{Service: "placement", Instance: "p", ManagedBy: "placement-operator"}
	desired := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: id.SelectorLabels()}}}
	same := desired.DeepCopy()
	if why := SelectorChanged(same, desired); why != "" {
		t.Errorf("equal selectors reported as changed: %s", why)
	}
	live := desired.DeepCopy()
	live.Spec.Selector.MatchLabels[ComponentLabel] = ComponentAPI
	why := SelectorChanged(live, desired)
	if !strings.Contains(why, "app.kubernetes.io/component=api") || !strings.Contains(why, "want app.kubernetes.io/instance=p,app.kubernetes.io/name=placement") {
		t.Errorf("message %q names neither selector", why)
	}
}
