package apply

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

var testID = workload.Identity{Service: "placement", Instance: "placement", Namespace: testNS, ManagedBy: "placement-operator"}

const configHash = "placement.c5c3.io/config-hash"

func desiredDeployment() *appsv1.Deployment {
	spec := &serviceapi.DeploymentSpec{Replicas: 3, Resources: corev1.ResourceRequirements{
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("0.5"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
	}}
	return workload.Deployment(workload.DeploymentParams{
		ID: testID, ContainerName: "placement-api", Image: "registry.example.org/placement:2025.1",
		Command: []string{"uwsgi", "--ini", "/etc/placement/uwsgi.ini"},
		Env: []corev1.EnvVar{
			workload.DSNEnv("OS_PLACEMENT_DATABASE__CONNECTION", "placement"),
			{Name: "OS_DEFAULT__DEBUG", Value: "false"},
		},
		Port: 8778, PortName: "api", ProbePath: "/", ConfigMapName: "placement-config-0123abcd", ConfigDir: "/etc/placement",
		Spec: spec, PodAnnotations: map[string]string{configHash: "abc"}, RunAsID: 42424,
	})
}

// served returns desired as the API server stores and returns it: encoded,
// decoded (quantities canonical, empty collections gone), defaulted and
// carrying server-owned metadata and status.
func served[T client.Object](t testing.TB, desired T) T {
	t.Helper()
	raw, err := json.Marshal(desired)
	if err != nil {
		t.Fatal(err)
	}
	live := reflect.New(reflect.TypeOf(desired).Elem()).Interface().(T)
	if err := json.Unmarshal(raw, live); err != nil {
		t.Fatal(err)
	}
	live.SetUID("3f1c")
	live.SetResourceVersion("4711")
	live.SetGeneration(2)
	live.SetCreationTimestamp(metav1.Now())
	live.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "placement-operator", Operation: metav1.ManagedFieldsOperationUpdate}})
	switch o := any(live).(type) {
	case *appsv1.Deployment:
		o.Annotations = map[string]string{"deployment.kubernetes.io/revision": "2"}
		o.Spec.RevisionHistoryLimit = ptr.To[int32](10)
		o.Spec.ProgressDeadlineSeconds = ptr.To[int32](600)
		ps := &o.Spec.Template.Spec
		ps.RestartPolicy, ps.DNSPolicy, ps.SchedulerName = corev1.RestartPolicyAlways, corev1.DNSClusterFirst, "default-scheduler"
		for i := range ps.Containers {
			c := &ps.Containers[i]
			c.ImagePullPolicy, c.TerminationMessagePath, c.TerminationMessagePolicy = corev1.PullIfNotPresent, "/dev/termination-log", corev1.TerminationMessageReadFile
			for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe} {
				p.HTTPGet.Scheme, p.SuccessThreshold = corev1.URISchemeHTTP, 1
				p.TimeoutSeconds, p.FailureThreshold = max(p.TimeoutSeconds, 1), max(p.FailureThreshold, 3)
			}
		}
		for i := range ps.Volumes {
			if cm := ps.Volumes[i].ConfigMap; cm != nil {
				cm.DefaultMode = ptr.To[int32](0o644)
			}
		}
		o.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3}
	case *corev1.Service:
		o.Spec.ClusterIP, o.Spec.ClusterIPs = "10.96.0.7", []string{"10.96.0.7"}
		o.Spec.SessionAffinity, o.Spec.IPFamilies = corev1.ServiceAffinityNone, []corev1.IPFamily{corev1.IPv4Protocol}
		o.Spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicySingleStack)
		o.Spec.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyCluster)
	case *autoscalingv2.HorizontalPodAutoscaler:
		o.Status.CurrentReplicas, o.Status.DesiredReplicas = 3, 4
	case *mariadbv1alpha1.Database:
		o.Spec.MariaDBRef.WaitForIt = true
		o.Spec.CleanupPolicy = ptr.To(mariadbv1alpha1.CleanupPolicyDelete)
		o.Spec.RequeueInterval = &metav1.Duration{Duration: 30 * time.Second}
	case *gatewayv1.HTTPRoute:
		o.Spec.Rules[0].BackendRefs[0].Weight = ptr.To[int32](1)
	}
	return live
}

type driftCase struct {
	name     string
	desired  func() client.Object
	edit     func(live client.Object)
	wantPath string // "" wants no drift
}

func deployEdit(f func(*appsv1.Deployment)) func(client.Object) {
	return func(o client.Object) { f(o.(*appsv1.Deployment)) }
}

func container(d *appsv1.Deployment) *corev1.Container { return &d.Spec.Template.Spec.Containers[0] }

func deploymentCases() []driftCase {
	d := func() client.Object { return desiredDeployment() }
	return []driftCase{
		{name: "Deployment as served", desired: d},
		{name: "Deployment image edited", desired: d, wantPath: "spec.template.spec.containers[0].image",
			edit: deployEdit(func(d *appsv1.Deployment) { container(d).Image = "registry.example.org/placement:hacked" })},
		{name: "Deployment env var added", desired: d, wantPath: "spec.template.spec.containers[0].env",
			edit: deployEdit(func(d *appsv1.Deployment) {
				container(d).Env = append(container(d).Env, corev1.EnvVar{Name: "EXTRA", Value: "1"})
			})},
		{name: "Deployment env value edited", desired: d, wantPath: "spec.template.spec.containers[0].env[1].value",
			edit: deployEdit(func(d *appsv1.Deployment) { container(d).Env[1].Value = "true" })},
		{name: "Deployment env secret key edited", desired: d, wantPath: "spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.key",
			edit: deployEdit(func(d *appsv1.Deployment) { container(d).Env[0].ValueFrom.SecretKeyRef.Key = "other" })},
		{name: "Deployment replicas edited", desired: d, wantPath: "spec.replicas",
			edit: deployEdit(func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](1) })},
		{name: "Deployment container added", desired: d, wantPath: "spec.template.spec.containers",
			edit: deployEdit(func(d *appsv1.Deployment) {
				d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar", Image: "busybox"})
			})},
		{name: "Deployment pointer to false flipped", desired: d,
			wantPath: "spec.template.spec.containers[0].securityContext.allowPrivilegeEscalation",
			edit:     deployEdit(func(d *appsv1.Deployment) { container(d).SecurityContext.AllowPrivilegeEscalation = ptr.To(true) })},
		{name: "Deployment IntOrString 0 edited", desired: d, wantPath: "spec.strategy.rollingUpdate.maxUnavailable",
			edit: deployEdit(func(d *appsv1.Deployment) {
				d.Spec.Strategy.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromString("25%"))
			})},
		{name: "Deployment rollout restart annotation", desired: d,
			edit: deployEdit(func(d *appsv1.Deployment) {
				d.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"] = "2025-01-01T00:00:00Z"
			})},
		{name: "Deployment owned template annotation changed", desired: d, wantPath: `spec.template.metadata.annotations["` + configHash + `"]`,
			edit: deployEdit(func(d *appsv1.Deployment) { d.Spec.Template.Annotations[configHash] = "edited" })},
		{name: "Deployment owned template label removed", desired: d, wantPath: `spec.template.metadata.labels["app.kubernetes.io/component"]`,
			edit: deployEdit(func(d *appsv1.Deployment) { delete(d.Spec.Template.Labels, workload.ComponentLabel) })},
		{name: "Deployment extra object label and annotation", desired: d,
			edit: deployEdit(func(d *appsv1.Deployment) { d.Labels["team"], d.Annotations["note"] = "a", "b" })},
		{name: "Deployment owned object label edited", desired: d, wantPath: `metadata.labels["app.kubernetes.io/managed-by"]`,
			edit: deployEdit(func(d *appsv1.Deployment) { d.Labels[workload.ManagedByLabel] = "someone" })},
		{name: "Deployment unset field set by hand is not owned", desired: d,
			edit: deployEdit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"} })},
		{name: "Deployment quantity 0.5 served as 500m", desired: d,
			edit: deployEdit(func(d *appsv1.Deployment) {
				container(d).Resources.Limits[corev1.ResourceCPU] = resource.MustParse("500m")
			})},
		{name: "Deployment quantity edited", desired: d, wantPath: `spec.template.spec.containers[0].resources.limits["cpu"]`,
			edit: deployEdit(func(d *appsv1.Deployment) {
				container(d).Resources.Limits[corev1.ResourceCPU] = resource.MustParse("600m")
			})},
		{name: "Deployment resource added", desired: d, wantPath: `spec.template.spec.containers[0].resources.requests["ephemeral-storage"]`,
			edit: deployEdit(func(d *appsv1.Deployment) {
				container(d).Resources.Requests[corev1.ResourceEphemeralStorage] = resource.MustParse("1Gi")
			})},
		{name: "Deployment selector label added", desired: d, wantPath: `spec.selector.matchLabels["x"]`,
			edit: deployEdit(func(d *appsv1.Deployment) { d.Spec.Selector.MatchLabels["x"] = "y" })},
	}
}

func otherCases() []driftCase {
	svc := func() client.Object { return workload.Service(testID, 8778, true) }
	svcEdit := func(f func(*corev1.Service)) func(client.Object) {
		return func(o client.Object) { f(o.(*corev1.Service)) }
	}
	secret := func() client.Object {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "placement-db-connection", Namespace: testNS, Labels: testID.Labels()},
			Type: corev1.SecretTypeOpaque, Data: map[string][]byte{"connection": []byte("mysql+pymysql://u:p@db/placement")}}
	}
	secretEdit := func(f func(*corev1.Secret)) func(client.Object) {
		return func(o client.Object) { f(o.(*corev1.Secret)) }
	}
	cm := func() client.Object {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "placement-extra", Namespace: testNS},
			Data: map[string]string{"placement.conf": "[DEFAULT]\n", "policy.yaml": "{}"}}
	}
	pdb := func() client.Object { return workload.PodDisruptionBudget(testID, 3) }
	hpa := func() client.Object {
		return workload.HorizontalPodAutoscaler(testID, serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: ptr.To[int32](70)}, 3)
	}
	np := func() client.Object {
		p, err := workload.NetworkPolicy(workload.NetworkPolicyParams{ID: testID, Port: 8778, DatabasePort: 3306, KeystoneURL: "https://keystone:5000",
			Spec: serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{
				NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "nova"}}}}}})
		if err != nil {
			panic(err)
		}
		return p
	}
	db := func() client.Object {
		return &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: testNS},
			Spec: mariadbv1alpha1.DatabaseSpec{MariaDBRef: mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: "mariadb"}},
				Name: "placement", CharacterSet: "utf8", Collate: "utf8_general_ci"}}
	}
	route := func() client.Object {
		return workload.HTTPRoute(testID, serviceapi.GatewaySpec{Hostname: "placement.example.org",
			ParentRef: serviceapi.GatewayParentRef{Name: "public"}, Annotations: map[string]string{"example.org/tier": "public"}}, 8778, "60s")
	}
	return []driftCase{
		{name: "Service as served (clusterIP only live)", desired: svc},
		{name: "Service selector key added", desired: svc, wantPath: `spec.selector["extra"]`,
			edit: svcEdit(func(s *corev1.Service) { s.Spec.Selector["extra"] = "x" })},
		{name: "Service selector value changed", desired: svc, wantPath: `spec.selector["app.kubernetes.io/instance"]`,
			edit: svcEdit(func(s *corev1.Service) { s.Spec.Selector[workload.InstanceLabel] = "other" })},
		{name: "Service port edited", desired: svc, wantPath: "spec.ports[0].targetPort",
			edit: svcEdit(func(s *corev1.Service) { s.Spec.Ports[0].TargetPort = intstr.FromString("http") })},
		{name: "Secret as served", desired: secret},
		{name: "Secret data edited", desired: secret, wantPath: `data["connection"]`,
			edit: secretEdit(func(s *corev1.Secret) { s.Data["connection"] = []byte("mysql+pymysql://u:p@evil/placement") })},
		{name: "Secret key added", desired: secret, wantPath: `data["extra"]`,
			edit: secretEdit(func(s *corev1.Secret) { s.Data["extra"] = []byte("x") })},
		{name: "ConfigMap as served", desired: cm},
		{name: "ConfigMap value edited", desired: cm, wantPath: `data["placement.conf"]`,
			edit: func(o client.Object) { o.(*corev1.ConfigMap).Data["placement.conf"] = "[DEFAULT]\ndebug = true\n" }},
		{name: "ConfigMap key removed", desired: cm, wantPath: `data["policy.yaml"]`,
			edit: func(o client.Object) { delete(o.(*corev1.ConfigMap).Data, "policy.yaml") }},
		{name: "PDB as served", desired: pdb},
		{name: "PDB minAvailable edited", desired: pdb, wantPath: "spec.minAvailable",
			edit: func(o client.Object) {
				o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable = ptr.To(intstr.FromInt32(3))
			}},
		{name: "PDB job exclusion removed", desired: pdb, wantPath: "spec.selector.matchExpressions",
			edit: func(o client.Object) { o.(*policyv1.PodDisruptionBudget).Spec.Selector.MatchExpressions = nil }},
		{name: "HPA as served", desired: hpa},
		{name: "HPA maxReplicas edited", desired: hpa, wantPath: "spec.maxReplicas",
			edit: func(o client.Object) { o.(*autoscalingv2.HorizontalPodAutoscaler).Spec.MaxReplicas = 50 }},
		{name: "HPA target edited", desired: hpa, wantPath: "spec.metrics[0].resource.target.averageUtilization",
			edit: func(o client.Object) {
				o.(*autoscalingv2.HorizontalPodAutoscaler).Spec.Metrics[0].Resource.Target.AverageUtilization = ptr.To[int32](10)
			}},
		{name: "NetworkPolicy as served", desired: np},
		{name: "NetworkPolicy source widened", desired: np, wantPath: `spec.ingress[0].from[0].namespaceSelector.matchLabels["kubernetes.io/metadata.name"]`,
			edit: func(o client.Object) {
				o.(*networkingv1.NetworkPolicy).Spec.Ingress[0].From[0].NamespaceSelector.MatchLabels = nil
			}},
		{name: "NetworkPolicy egress rule added", desired: np, wantPath: "spec.egress",
			edit: func(o client.Object) {
				p := o.(*networkingv1.NetworkPolicy)
				p.Spec.Egress = append(p.Spec.Egress, networkingv1.NetworkPolicyEgressRule{})
			}},
		{name: "Database as served (CRD defaults)", desired: db},
		{name: "Database character set edited", desired: db, wantPath: "spec.characterSet",
			edit: func(o client.Object) { o.(*mariadbv1alpha1.Database).Spec.CharacterSet = "latin1" }},
		{name: "HTTPRoute as served", desired: route},
		{name: "HTTPRoute hostname edited", desired: route, wantPath: "spec.hostnames[0]",
			edit: func(o client.Object) { o.(*gatewayv1.HTTPRoute).Spec.Hostnames[0] = "evil.example.org" }},
		{name: "HTTPRoute backend group emptied pointer compared", desired: route, wantPath: "spec.rules[0].backendRefs[0].group",
			edit: func(o client.Object) { o.(*gatewayv1.HTTPRoute).Spec.Rules[0].BackendRefs[0].Group = nil }},
		{name: "HTTPRoute status only", desired: route,
			edit: func(o client.Object) {
				o.(*gatewayv1.HTTPRoute).Status.Parents = []gatewayv1.RouteParentStatus{{ControllerName: "example.com/gw"}}
			}},
	}
}

func TestDrift(t *testing.T) {
	for _, tt := range append(deploymentCases(), otherCases()...) {
		t.Run(tt.name, func(t *testing.T) {
			desired := tt.desired()
			live := served(t, desired)
			if tt.edit != nil {
				tt.edit(live)
			}
			path, drifted := Drift(live, desired)
			if drifted != (tt.wantPath != "") || path != tt.wantPath {
				t.Errorf("Drift = (%q, %v), want (%q, %v)", path, drifted, tt.wantPath, tt.wantPath != "")
			}
		})
	}
}

func TestDriftEdgeCases(t *testing.T) {
	tests := []struct {
		name          string
		live, desired any
		want          bool
	}{
		{name: "different types", live: &corev1.Service{}, desired: &corev1.Secret{}, want: true},
		{name: "nil desired pointer", live: &corev1.Service{}, desired: (*corev1.Service)(nil)},
		{name: "nil live pointer", live: (*corev1.Service)(nil), desired: &corev1.Service{}, want: true},
		{name: "empty desired map owns emptiness", want: true,
			live:    &corev1.ConfigMap{Data: map[string]string{"a": "b"}},
			desired: &corev1.ConfigMap{Data: map[string]string{}}},
		{name: "empty desired map matches absent live map",
			live: &corev1.ConfigMap{}, desired: &corev1.ConfigMap{Data: map[string]string{}}},
		{name: "empty and nil bytes are equal",
			live:    &corev1.Secret{Data: map[string][]byte{"a": nil}},
			desired: &corev1.Secret{Data: map[string][]byte{"a": {}}}},
		{name: "time compared at second precision",
			live:    &metav1.Condition{LastTransitionTime: metav1.Unix(100, 0)},
			desired: &metav1.Condition{LastTransitionTime: metav1.Unix(100, 999)}},
		{name: "time edited", want: true,
			live:    &metav1.Condition{LastTransitionTime: metav1.Unix(100, 0)},
			desired: &metav1.Condition{LastTransitionTime: metav1.Unix(101, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if path, got := Drift(tt.live, tt.desired); got != tt.want {
				t.Errorf("Drift = (%q, %v), want %v", path, got, tt.want)
			}
		})
	}
}

// BenchmarkDriftDeployment is the steady-state cost Ensure adds to every pass.
func BenchmarkDriftDeployment(b *testing.B) {
	desired := desiredDeployment()
	live := served(b, desired)
	b.ReportAllocs()
	for b.Loop() {
		if path, drifted := Drift(live, desired); drifted {
			b.Fatalf("drift at %s", path)
		}
	}
}
