package validation

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func i32(v int32) *int32 { return &v }
func i64(v int64) *int64 { return &v }
func boolp(v bool) *bool { return &v }

func autoscaling(minR *int32, maxR int32, cpu, mem *int32) *serviceapi.AutoscalingSpec {
	return &serviceapi.AutoscalingSpec{MinReplicas: minR, MaxReplicas: maxR, TargetCPUUtilization: cpu, TargetMemoryUtilization: mem}
}

func resources(req, lim corev1.ResourceList) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{Requests: req, Limits: lim}
}

func TestDeployment(t *testing.T) {
	p := field.NewPath("spec", "deployment")
	q := resource.MustParse
	checkRules(t, []ruleCase{
		{name: "nil", got: Deployment(p, nil)},
		{name: "defaults", got: Deployment(p, &serviceapi.DeploymentSpec{})},
		{name: "valid explicit", got: Deployment(p, &serviceapi.DeploymentSpec{Replicas: 2, TerminationGracePeriodSeconds: i64(10), PreStopSleepSeconds: i64(9),
			Strategy:  &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Resources: resources(corev1.ResourceList{"cpu": q("500m"), "memory": q("1Gi")}, corev1.ResourceList{"cpu": q("500m")})})},
		{name: "negative replicas", got: Deployment(p, &serviceapi.DeploymentSpec{Replicas: -1}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.replicas", nil}}},
		{name: "grace below 10", got: Deployment(p, &serviceapi.DeploymentSpec{TerminationGracePeriodSeconds: i64(9), PreStopSleepSeconds: i64(2)}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.terminationGracePeriodSeconds", []string{"at least 10"}}}},
		{name: "negative preStop", got: Deployment(p, &serviceapi.DeploymentSpec{PreStopSleepSeconds: i64(-1)}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.preStopSleepSeconds", []string{"must not be negative"}}}},
		{name: "preStop equal to default grace", got: Deployment(p, &serviceapi.DeploymentSpec{PreStopSleepSeconds: i64(30)}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.preStopSleepSeconds", []string{"(30 s)", "(30 s)"}}}},
		{name: "default preStop above grace", got: Deployment(p, &serviceapi.DeploymentSpec{TerminationGracePeriodSeconds: i64(4)}),
			want: []want{
				{field.ErrorTypeInvalid, "spec.deployment.terminationGracePeriodSeconds", nil},
				{field.ErrorTypeInvalid, "spec.deployment.preStopSleepSeconds", []string{"preStop sleep (5 s)", "grace period (4 s)"}},
			}},
		{name: "preStop above grace names both", got: Deployment(p, &serviceapi.DeploymentSpec{TerminationGracePeriodSeconds: i64(15), PreStopSleepSeconds: i64(20)}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.preStopSleepSeconds", []string{"preStop sleep (20 s)", "grace period (15 s)"}}}},
		{name: "Recreate with rollingUpdate", got: Deployment(p, &serviceapi.DeploymentSpec{Strategy: &appsv1.DeploymentStrategy{
			Type: appsv1.RecreateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}}}),
			want: []want{{field.ErrorTypeForbidden, "spec.deployment.strategy.rollingUpdate", nil}}},
		{name: "RollingUpdate with rollingUpdate", got: Deployment(p, &serviceapi.DeploymentSpec{Strategy: &appsv1.DeploymentStrategy{
			Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}}})},
		{name: "cpu request above limit", got: Deployment(p, &serviceapi.DeploymentSpec{Resources: resources(
			corev1.ResourceList{"cpu": q("1"), "memory": q("512Mi")}, corev1.ResourceList{"cpu": q("500m"), "memory": q("1Gi")})}),
			want: []want{{field.ErrorTypeInvalid, "spec.deployment.resources.requests[cpu]", []string{"cpu request must not exceed limit"}}}},
		{name: "both requests above limits, sorted", got: Deployment(p, &serviceapi.DeploymentSpec{Resources: resources(
			corev1.ResourceList{"memory": q("2Gi"), "cpu": q("2")}, corev1.ResourceList{"cpu": q("1"), "memory": q("1Gi")})}),
			want: []want{
				{field.ErrorTypeInvalid, "spec.deployment.resources.requests[cpu]", []string{"cpu request must not exceed limit"}},
				{field.ErrorTypeInvalid, "spec.deployment.resources.requests[memory]", []string{"memory request must not exceed limit"}},
			}},
	})
}

func TestHarakiri(t *testing.T) {
	p := field.NewPath("spec", "apiServer", "uwsgi", "harakiri")
	long := &serviceapi.DeploymentSpec{TerminationGracePeriodSeconds: i64(60), PreStopSleepSeconds: i64(10)}
	checkRules(t, []ruleCase{
		{name: "no uwsgi", got: Harakiri(p, nil, nil)},
		{name: "no harakiri", got: Harakiri(p, &serviceapi.UWSGISpec{}, nil)},
		{name: "below default window", got: Harakiri(p, &serviceapi.UWSGISpec{Harakiri: i32(24)}, nil)},
		{name: "equal to default window", got: Harakiri(p, &serviceapi.UWSGISpec{Harakiri: i32(25)}, nil),
			want: []want{{field.ErrorTypeInvalid, "spec.apiServer.uwsgi.harakiri", []string{"drain window (terminationGracePeriodSeconds - preStopSleepSeconds = 25 s)"}}}},
		{name: "below custom window", got: Harakiri(p, &serviceapi.UWSGISpec{Harakiri: i32(49)}, long)},
		{name: "above custom window", got: Harakiri(p, &serviceapi.UWSGISpec{Harakiri: i32(55)}, long),
			want: []want{{field.ErrorTypeInvalid, "spec.apiServer.uwsgi.harakiri", []string{"= 50 s"}}}},
	})
}

func TestUWSGI(t *testing.T) {
	p := field.NewPath("spec", "apiServer", "uwsgi")
	checkRules(t, []ruleCase{
		{name: "nil", got: UWSGI(p, nil)},
		{name: "timeout with keepalive default", got: UWSGI(p, &serviceapi.UWSGISpec{HTTPKeepAliveTimeout: i32(30)})},
		{name: "timeout with keepalive true", got: UWSGI(p, &serviceapi.UWSGISpec{HTTPKeepAlive: boolp(true), HTTPKeepAliveTimeout: i32(30)})},
		{name: "keepalive false without timeout", got: UWSGI(p, &serviceapi.UWSGISpec{HTTPKeepAlive: boolp(false)})},
		{name: "timeout with keepalive false", got: UWSGI(p, &serviceapi.UWSGISpec{HTTPKeepAlive: boolp(false), HTTPKeepAliveTimeout: i32(30)}),
			want: []want{{field.ErrorTypeForbidden, "spec.apiServer.uwsgi.httpKeepAliveTimeout", []string{"httpKeepAlive is false"}}}},
	})
}

func TestAutoscaling(t *testing.T) {
	p := field.NewPath("spec", "autoscaling")
	checkRules(t, []ruleCase{
		{name: "nil", got: Autoscaling(p, nil, 3)},
		{name: "cpu target", got: Autoscaling(p, autoscaling(i32(2), 5, i32(80), nil), 3)},
		{name: "memory target bounds", got: Autoscaling(p, autoscaling(i32(1), 1, i32(1), i32(100)), 3)},
		{name: "implicit min equal to max", got: Autoscaling(p, autoscaling(nil, 3, i32(80), nil), 3)},
		{name: "explicit min hides replicas", got: Autoscaling(p, autoscaling(i32(2), 3, i32(80), nil), 10)},
		{name: "no target", got: Autoscaling(p, autoscaling(nil, 5, nil, nil), 3),
			want: []want{{field.ErrorTypeRequired, "spec.autoscaling", []string{"targetCPUUtilization or targetMemoryUtilization"}}}},
		{name: "cpu 0", got: Autoscaling(p, autoscaling(nil, 5, i32(0), nil), 3),
			want: []want{{field.ErrorTypeInvalid, "spec.autoscaling.targetCPUUtilization", []string{"between 1 and 100"}}}},
		{name: "memory 101", got: Autoscaling(p, autoscaling(nil, 5, nil, i32(101)), 3),
			want: []want{{field.ErrorTypeInvalid, "spec.autoscaling.targetMemoryUtilization", []string{"between 1 and 100"}}}},
		{name: "both out of range, field order", got: Autoscaling(p, autoscaling(nil, 5, i32(101), i32(0)), 3),
			want: []want{
				{field.ErrorTypeInvalid, "spec.autoscaling.targetCPUUtilization", nil},
				{field.ErrorTypeInvalid, "spec.autoscaling.targetMemoryUtilization", nil},
			}},
		{name: "min above max", got: Autoscaling(p, autoscaling(i32(6), 5, i32(80), nil), 3),
			want: []want{{field.ErrorTypeInvalid, "spec.autoscaling.minReplicas", []string{"must not exceed maxReplicas"}}}},
		{name: "implicit min from replicas above max", got: Autoscaling(p, autoscaling(nil, 2, i32(80), nil), 3),
			want: []want{{field.ErrorTypeInvalid, "spec.autoscaling.maxReplicas", []string{"defaults to deployment.replicas (3)"}}}},
	})
}

func TestSpreadSelectors(t *testing.T) {
	p := field.NewPath("spec", "deployment", "topologySpreadConstraints")
	sel := map[string]string{"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p"}
	tsc := func(ls *metav1.LabelSelector) corev1.TopologySpreadConstraint {
		return corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", LabelSelector: ls}
	}
	good := tsc(&metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/instance": "p", "app.kubernetes.io/name": "placement"}})
	d := func(cs ...corev1.TopologySpreadConstraint) *serviceapi.DeploymentSpec {
		return &serviceapi.DeploymentSpec{TopologySpreadConstraints: cs}
	}
	const expected = "must be exactly matchLabels {app.kubernetes.io/instance: p, app.kubernetes.io/name: placement} with no matchExpressions; got "
	bad := func(i, got string) []want {
		return []want{{field.ErrorTypeInvalid, "spec.deployment.topologySpreadConstraints[" + i + "].labelSelector", []string{expected + got}}}
	}
	checkRules(t, []ruleCase{
		{name: "nil deployment", got: SpreadSelectors(p, nil, sel)},
		{name: "no constraints", got: SpreadSelectors(p, d(), sel)},
		{name: "exact selector", got: SpreadSelectors(p, d(good, good), sel)},
		{name: "nil selector", got: SpreadSelectors(p, d(tsc(nil)), sel), want: bad("0", "no labelSelector")},
		{name: "empty selector", got: SpreadSelectors(p, d(tsc(&metav1.LabelSelector{})), sel), want: bad("0", "matchLabels {}")},
		{name: "matchExpressions", got: SpreadSelectors(p, d(good, tsc(&metav1.LabelSelector{MatchLabels: sel,
			MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "x", Operator: metav1.LabelSelectorOpExists},
				{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{"api", "2025.2"}}}})), sel),
			want: bad("1", "matchLabels {app.kubernetes.io/instance: p, app.kubernetes.io/name: placement}, "+
				`matchExpressions [{key: x, operator: Exists}, {key: tier, operator: In, values: [api, "2025.2"]}]`)},
		{name: "subset of labels", got: SpreadSelectors(p, d(tsc(&metav1.LabelSelector{MatchLabels: map[string]string{"app": "placement"}})), sel),
			want: bad("0", "matchLabels {app: placement}")},
		{name: "extra label", got: SpreadSelectors(p, d(tsc(&metav1.LabelSelector{MatchLabels: map[string]string{
			"tier": "api", "app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p"}})), sel),
			want: bad("0", "matchLabels {app.kubernetes.io/instance: p, app.kubernetes.io/name: placement, tier: api}")},
		{name: "other instance", got: SpreadSelectors(p, d(tsc(&metav1.LabelSelector{MatchLabels: map[string]string{
			"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "q"}})), sel),
			want: bad("0", "matchLabels {app.kubernetes.io/instance: q, app.kubernetes.io/name: placement}")},
		{name: "values YAML would misread are quoted", got: SpreadSelectors(p, d(tsc(&metav1.LabelSelector{MatchLabels: map[string]string{
			"on": "true", "a: b": "", "x": "caf\u00e9\n"}})), sel),
			want: bad("0", `matchLabels {"a: b": "", "on": "true", x: "caf\u00e9\n"}`)},
	})
}

// The message must read the same on every run although both selectors are maps.
func TestSpreadSelectorsMessageIsStable(t *testing.T) {
	p := field.NewPath("spec", "deployment", "topologySpreadConstraints")
	want := map[string]string{}
	got := map[string]string{}
	for i := range 20 {
		want[fmt.Sprintf("want-%02d", i)] = "v"
		got[fmt.Sprintf("got-%02d", i)] = "v"
	}
	d := &serviceapi.DeploymentSpec{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: got}}}}
	first := SpreadSelectors(p, d, want)[0].Error()
	if !strings.Contains(first, "{want-00: v, want-01: v, ") || !strings.Contains(first, "got matchLabels {got-00: v, got-01: v, ") {
		t.Fatalf("keys not sorted: %s", first)
	}
	for range 50 {
		if again := SpreadSelectors(p, d, want)[0].Error(); again != first {
			t.Fatalf("message changed between runs:\n%s\n%s", first, again)
		}
	}
}

func TestSpreadConstraints(t *testing.T) {
	p := field.NewPath("spec", "deployment", "topologySpreadConstraints")
	d := func(cs ...corev1.TopologySpreadConstraint) *serviceapi.DeploymentSpec {
		return &serviceapi.DeploymentSpec{TopologySpreadConstraints: cs}
	}
	good := corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: corev1.DoNotSchedule}
	path := func(i, f string) string { return "spec.deployment.topologySpreadConstraints[" + i + "]." + f }
	checkRules(t, []ruleCase{
		{name: "nil deployment", got: SpreadConstraints(p, nil)},
		{name: "complete", got: SpreadConstraints(p, d(good, good))},
		{name: "fields missing", got: SpreadConstraints(p, d(good, corev1.TopologySpreadConstraint{})), want: []want{
			{field.ErrorTypeRequired, path("1", "maxSkew"), []string{"Required value"}},
			{field.ErrorTypeRequired, path("1", "topologyKey"), []string{"Required value"}},
			{field.ErrorTypeRequired, path("1", "whenUnsatisfiable"), []string{"Required value"}},
		}},
		{name: "negative skew, unknown action", got: SpreadConstraints(p, d(corev1.TopologySpreadConstraint{
			MaxSkew: -1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: "Sometimes"})), want: []want{
			{field.ErrorTypeInvalid, path("0", "maxSkew"), []string{"must be at least 1"}},
			{field.ErrorTypeNotSupported, path("0", "whenUnsatisfiable"), []string{`"DoNotSchedule", "ScheduleAnyway"`}},
		}},
	})
}
