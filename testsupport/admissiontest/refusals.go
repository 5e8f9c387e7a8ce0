package admissiontest

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Catalog names what the kind's embedded option catalog holds for the
// release New uses, for the extraConfig cases.
type Catalog struct {
	Release string // of the objects New returns, e.g. 2025.2
	Section string // a section of that release's catalog
	Option  string // a current option of Section
}

// ServiceRefusals are one invalid object per shared rule: what the CRD
// schema refuses ("S") and what the validating webhook adds ("V").
func (k Kind[T]) ServiceRefusals(cat Catalog) []Refusal[T] {
	const spread = "refused-spread" // the expected selector names the instance
	catalog := k.Service + " " + cat.Release + " option catalog"
	cases := []Refusal[T]{
		k.Shared("image tag and digest", func(t Target) { t.Spec.Image.Digest = "sha256:" + strings.Repeat("a", 64) },
			"S", "spec.image", "exactly one of image.tag or image.digest"),
		k.Shared("image neither tag nor digest", func(t Target) { t.Spec.Image.Tag = "" },
			"S", "spec.image", "exactly one of image.tag or image.digest"),
		k.Shared("release outside pattern", func(t Target) { t.Spec.OpenStackRelease = "2025.3" }, "S", "spec.openStackRelease"),
		k.Shared("database clusterRef and host", func(t Target) { t.Spec.Database.Host = "db.example.org" },
			"S", "spec.database", "exactly one of database.clusterRef or database.host"),
		k.Shared("Dynamic without clusterRef", func(t Target) {
			t.Spec.Database.ClusterRef, t.Spec.Database.Host, t.Spec.Database.CredentialsMode = nil, "db.example.org", "Dynamic"
		}, "S", "spec.database", "Dynamic requires database.clusterRef"),
		k.Shared("cache clusterRef and servers", func(t Target) { t.Spec.Cache.Servers = []string{"m:11211"} },
			"S", "spec.cache", "exactly one of cache.clusterRef or cache.servers"),
		k.Shared("cache clusterRef CRLF", func(t Target) { t.Spec.Cache.ClusterRef.Name = "m\r\n" }, "S", "spec.cache", "CR or LF"),
		k.Shared("cache servers LF", func(t Target) {
			t.Spec.Cache.ClusterRef, t.Spec.Cache.Servers = nil, []string{"m:11211\n"}
		}, "S", "spec.cache", "CR or LF"),
		k.Shared("replicas below 1", func(t Target) { t.Deployment().Replicas = -1 }, "S", "spec.deployment.replicas"),
		k.Shared("grace below 10", func(t Target) { t.Deployment().TerminationGracePeriodSeconds = new(int64(9)) },
			"S", "spec.deployment.terminationGracePeriodSeconds"),
		k.Shared("preStop negative", func(t Target) { t.Deployment().PreStopSleepSeconds = new(int64(-1)) },
			"S", "spec.deployment.preStopSleepSeconds"),
		k.Shared("preStop not below grace, both set", func(t Target) {
			d := t.Deployment()
			d.TerminationGracePeriodSeconds, d.PreStopSleepSeconds = new(int64(20)), new(int64(20))
		}, "S", "spec.deployment", "preStopSleepSeconds (default 5) must be less than"),
		k.Shared("effective preStop not below default grace", func(t Target) { t.Deployment().PreStopSleepSeconds = new(int64(30)) },
			"S", "spec.deployment", "terminationGracePeriodSeconds (default 30)"),
		k.Shared("harakiri not below drain window", func(t Target) { t.UWSGI().Harakiri = new(int32(25)) },
			"V", "spec.apiServer.uwsgi.harakiri", "drain window"),
		k.Shared("keepalive timeout with keepalive false", func(t Target) {
			u := t.UWSGI()
			u.HTTPKeepAlive, u.HTTPKeepAliveTimeout = new(false), new(int32(5))
		}, "S", "spec.apiServer.uwsgi", "httpKeepAliveTimeout"),
		k.Shared("Recreate with rollingUpdate", func(t Target) {
			t.Deployment().Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{}}
		}, "V", "spec.deployment.strategy.rollingUpdate", "Forbidden"),
		k.Shared("autoscaling without target", func(t Target) { t.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5} },
			"S", "spec.autoscaling", "at least one of targetCPUUtilization or targetMemoryUtilization"),
		k.Shared("autoscaling target above 100", func(t Target) {
			t.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(101))}
		}, "S", "spec.autoscaling.targetCPUUtilization"),
		k.Shared("autoscaling min above max", func(t Target) {
			t.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(6)), MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		}, "S", "spec.autoscaling", "minReplicas must not exceed"),
		k.Shared("autoscaling implicit min above max", func(t Target) {
			t.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 2, TargetCPUUtilization: new(int32(80))}
		}, "V", "spec.autoscaling.maxReplicas", "minReplicas defaults to deployment.replicas (3)"),
		k.Shared("networkPolicy empty ingress", func(t Target) {
			t.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{}}
		}, "S", "spec.networkPolicy.ingress"),
		k.Shared("gateway hostname empty", func(t Target) {
			t.Spec.Gateway = &serviceapi.GatewaySpec{ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
		}, "S", "spec.gateway.hostname: Required value"),
		k.Shared("gateway parentRef empty", func(t Target) { t.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: k.Service + ".example.org"} },
			"S", "spec.gateway.parentRef: Required value"),
		k.Shared("keystoneEndpoint unset", func(t Target) { t.Spec.KeystoneEndpoint = "" }, "S", "spec.keystoneEndpoint: Required value"),
		k.Shared("keystoneEndpoint scheme", func(t Target) { t.Spec.KeystoneEndpoint = "ftp://keystone" }, "S", "spec.keystoneEndpoint"),
		k.Shared("keystoneEndpoint unparseable", func(t Target) { t.Spec.KeystoneEndpoint = "http://key stone:5000" },
			"V", "spec.keystoneEndpoint", "must be a valid URL"),
		k.Shared("keystoneEndpoint without host", func(t Target) { t.Spec.KeystoneEndpoint = "https:///v3" },
			"V", "spec.keystoneEndpoint", "must include a host"),
		k.Shared("keystonePublicEndpoint without host", func(t Target) { t.Spec.KeystonePublicEndpoint = "http://" },
			"V", "spec.keystonePublicEndpoint", "must include a host"),
		k.Shared("region CRLF", func(t Target) { t.Spec.Region = "RegionOne\r\n" }, "V", "spec.region", "must not contain CR or LF"),
		k.Shared("service user identity CRLF", func(t Target) { t.Spec.ServiceUser.ProjectDomainName = "Default\n" },
			"V", "spec.serviceUser.projectDomainName", "must not contain CR or LF"),
		k.Shared("logging format", func(t Target) { t.Spec.Logging = &serviceapi.LoggingSpec{Format: "xml"} }, "S", "spec.logging.format"),
		k.Shared("logging level", func(t Target) { t.Spec.Logging = &serviceapi.LoggingSpec{Level: "TRACE"} }, "S", "spec.logging.level"),
		k.Shared("per-logger empty name", func(t Target) {
			t.Spec.Logging = &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"": "INFO"}}
		}, "S", "spec.logging.perLoggerLevels", "names must not be empty"),
		k.Shared("per-logger bad level", func(t Target) {
			t.Spec.Logging = &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"amqp": "LOUD"}}
		}, "S", "spec.logging.perLoggerLevels.amqp", "Unsupported value"),
		k.Shared("per-logger CRLF name", func(t Target) {
			t.Spec.Logging = &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"amqp\r\n": "INFO"}}
		}, "V", "spec.logging.perLoggerLevels[amqp", "must not contain CR or LF"),
		k.Shared("policyOverrides empty", func(t Target) { t.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{} },
			"S", "spec.policyOverrides", "needs rules or configMapRef"),
		k.Shared("policyOverrides empty rule value", func(t Target) {
			t.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{Rules: map[string]string{"admin_api": ""}}
		}, "S", "spec.policyOverrides", "must not be empty"),
		k.Shared("secretStoreRef name empty", func(t Target) { t.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{} },
			"S", "spec.secretStoreRef.name: Required value"),
		k.Shared("secretStoreRef kind", func(t Target) { t.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: "Vault", Name: "v"} },
			"S", "spec.secretStoreRef.kind"),
		k.Shared("targetClusterRef name empty", func(t Target) { t.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{} },
			"S", "spec.targetClusterRef.name: Required value"),
		k.Shared("request above limit", func(t Target) {
			t.Deployment().Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}
		}, "V", "spec.deployment.resources.requests[cpu]", "cpu request must not exceed limit"),
		k.Shared("PriorityClass missing", func(t Target) { t.Deployment().PriorityClassName = new("no-such-class") },
			"V", "spec.deployment.priorityClassName", "Not found"),
		k.Shared("extraConfig empty key", func(t Target) { t.Spec.ExtraConfig = map[string]map[string]string{cat.Section: {"": "1"}} },
			"V", "spec.extraConfig["+cat.Section+"][]", "key must not be empty"),
		k.Shared("extraConfig CRLF value", func(t Target) {
			t.Spec.ExtraConfig = map[string]map[string]string{cat.Section: {cat.Option: "1\n[api]"}}
		}, "V", "spec.extraConfig["+cat.Section+"]["+cat.Option+"]", "value must not contain CR or LF"),
		k.Shared("extraConfig rejected owned key", func(t Target) {
			t.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"password": Secret}}
		}, "V", "spec.extraConfig[keystone_authtoken][password]", "Forbidden", "password is managed via spec.serviceUser.secretRef"),
		k.Shared("extraConfig unknown option", func(t Target) {
			t.Spec.ExtraConfig = map[string]map[string]string{cat.Section: {"no_such_option": "1"}}
		}, "V", "spec.extraConfig["+cat.Section+"][no_such_option]", "no such option in the "+catalog),
		k.Shared("extraConfig unknown section", func(t Target) { t.Spec.ExtraConfig = map[string]map[string]string{"nova": {"x": "1"}} },
			"V", "spec.extraConfig[nova]", "no such section in the "+catalog),
	}
	spreadCase := k.Shared("spread selector", func(t Target) {
		t.Deployment().TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": k.Service}}}}
	}, "V", "spec.deployment.topologySpreadConstraints[0].labelSelector: Invalid value: must be exactly matchLabels "+
		"{app.kubernetes.io/instance: "+spread+", app.kubernetes.io/name: "+k.Service+"} with no matchExpressions; got matchLabels {app: "+k.Service+"}")
	spreadCase.Object = spread
	return append(cases, spreadCase)
}
