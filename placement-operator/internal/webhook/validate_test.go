package webhook

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// valid is a defaulted Placement that passes every rule.
func valid() *placementv1.Placement {
	p := bare()
	Apply(p)
	return p
}

// fieldErr is the part of a field.Error a rule is identified by.
type fieldErr = admissiontest.FieldErr

func summarize(errs field.ErrorList) []fieldErr { return admissiontest.Summarize(errs) }

func invalid(path string) fieldErr   { return admissiontest.Invalid(path) }
func required(path string) fieldErr  { return admissiontest.Required(path) }
func forbidden(path string) fieldErr { return admissiontest.Forbidden(path) }
func notSupp(path string) fieldErr   { return fieldErr{Type: field.ErrorTypeNotSupported, Path: path} }

func deployment(p *placementv1.Placement) *serviceapi.DeploymentSpec { return p.Spec.Deployment }

func TestSpecValidHasNoErrors(t *testing.T) {
	if errs := Spec(valid(), nil); len(errs) != 0 {
		t.Fatalf("valid Placement: %v", errs)
	}
	// A Placement exercising every optional block correctly.
	p := valid()
	p.Spec.KeystonePublicEndpoint = "https://keystone.example.org"
	p.Spec.Region = "RegionOne"
	p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "edge-1"}
	p.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: "SecretStore", Name: "vault"}
	p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "placement.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	p.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{NamespaceSelector: &metav1.LabelSelector{}}}}
	p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 3, TargetMemoryUtilization: new(int32(100))}
	p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Harakiri: new(int32(24)), HTTPKeepAliveTimeout: new(int32(5))}}
	p.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{"amqp": "CRITICAL"}
	d := p.Spec.Deployment
	d.TerminationGracePeriodSeconds, d.PreStopSleepSeconds = new(int64(34)), new(int64(9)) // drain window 25 > harakiri 24
	d.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.DoNotSchedule,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
			"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "placement"}},
	}}
	d.Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	d.Resources.Requests[corev1.ResourceCPU] = resource.MustParse("500m") // equal to the limit
	if errs := Spec(p, p.DeepCopy()); len(errs) != 0 {
		t.Fatalf("fully specified valid Placement: %v", errs)
	}
}

// One case per rule of placement-api.md §4.2 that the webhook enforces
// without a lookup.
// spread is a topology spread constraint with every required field set.
func spread(ls *metav1.LabelSelector) corev1.TopologySpreadConstraint {
	return corev1.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname",
		WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: ls}
}

// specRule is one invalid Placement and the errors Spec reports for it.
type specRule struct {
	name    string
	mut     func(p *placementv1.Placement)
	old     func(p *placementv1.Placement) // nil: CREATE
	want    []fieldErr
	message string // substring of the first error's detail
}

func specRules() []specRule {
	return []specRule{
		{name: "targetClusterRef name changed", mut: func(p *placementv1.Placement) {
			p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "b"}
		}, old: func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "a"} },
			want: []fieldErr{invalid("spec.targetClusterRef")}, message: `targetClusterRef is immutable (was "a")`},
		{name: "targetClusterRef added", mut: func(p *placementv1.Placement) {
			p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "b"}
		}, old: func(*placementv1.Placement) {}, want: []fieldErr{invalid("spec.targetClusterRef")}, message: "immutable"},
		{name: "targetClusterRef removed", mut: func(*placementv1.Placement) {},
			old:  func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "a"} },
			want: []fieldErr{invalid("spec.targetClusterRef")}, message: "children cannot move between clusters"},
		{name: "targetClusterRef name empty", mut: func(p *placementv1.Placement) {
			p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{}
		}, want: []fieldErr{required("spec.targetClusterRef.name")}},
		{name: "image tag and digest", mut: func(p *placementv1.Placement) {
			p.Spec.Image.Digest = "sha256:" + strings.Repeat("0", 64)
		}, want: []fieldErr{invalid("spec.image")}, message: "exactly one of image.tag or image.digest"},
		{name: "image neither tag nor digest", mut: func(p *placementv1.Placement) { p.Spec.Image.Tag = "" },
			want: []fieldErr{invalid("spec.image")}},
		{name: "database clusterRef and host", mut: func(p *placementv1.Placement) { p.Spec.Database.Host = "db" },
			want: []fieldErr{invalid("spec.database")}, message: "exactly one of database.clusterRef or database.host"},
		{name: "database neither clusterRef nor host", mut: func(p *placementv1.Placement) { p.Spec.Database.ClusterRef = nil },
			want: []fieldErr{invalid("spec.database")}},
		{name: "Dynamic without clusterRef", mut: func(p *placementv1.Placement) {
			p.Spec.Database.ClusterRef, p.Spec.Database.Host, p.Spec.Database.CredentialsMode = nil, "db", "Dynamic"
		}, want: []fieldErr{invalid("spec.database.credentialsMode")}},
		{name: "cache clusterRef and servers", mut: func(p *placementv1.Placement) { p.Spec.Cache.Servers = []string{"m:11211"} },
			want: []fieldErr{invalid("spec.cache")}},
		{name: "cache neither", mut: func(p *placementv1.Placement) { p.Spec.Cache.ClusterRef = nil },
			want: []fieldErr{invalid("spec.cache")}},
		{name: "cache clusterRef CRLF", mut: func(p *placementv1.Placement) { p.Spec.Cache.ClusterRef.Name = "m\r\nx" },
			want: []fieldErr{invalid("spec.cache.clusterRef.name")}},
		{name: "cache server LF", mut: func(p *placementv1.Placement) {
			p.Spec.Cache.ClusterRef, p.Spec.Cache.Servers = nil, []string{"a:11211", "b:11211\n[x]"}
		}, want: []fieldErr{invalid("spec.cache.servers[1]")}},
		{name: "replicas negative", mut: func(p *placementv1.Placement) { deployment(p).Replicas = -1 },
			want: []fieldErr{invalid("spec.deployment.replicas")}},
		{name: "grace below 10", mut: func(p *placementv1.Placement) {
			deployment(p).TerminationGracePeriodSeconds, deployment(p).PreStopSleepSeconds = new(int64(9)), new(int64(1))
		}, want: []fieldErr{invalid("spec.deployment.terminationGracePeriodSeconds")}},
		{name: "preStop negative", mut: func(p *placementv1.Placement) { deployment(p).PreStopSleepSeconds = new(int64(-1)) },
			want: []fieldErr{invalid("spec.deployment.preStopSleepSeconds")}},
		{name: "effective preStop not below effective grace", mut: func(p *placementv1.Placement) {
			deployment(p).PreStopSleepSeconds = new(int64(30))
		}, want: []fieldErr{invalid("spec.deployment.preStopSleepSeconds")},
			message: "preStop sleep (30 s) must be less than the termination grace period (30 s)"},
		{name: "harakiri not below drain window", mut: func(p *placementv1.Placement) {
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Harakiri: new(int32(25))}}
		}, want: []fieldErr{invalid("spec.apiServer.uwsgi.harakiri")}, message: "drain window (terminationGracePeriodSeconds - preStopSleepSeconds = 25 s)"},
		{name: "harakiri against explicit grace and preStop", mut: func(p *placementv1.Placement) {
			deployment(p).TerminationGracePeriodSeconds, deployment(p).PreStopSleepSeconds = new(int64(60)), new(int64(20))
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Harakiri: new(int32(40))}}
		}, want: []fieldErr{invalid("spec.apiServer.uwsgi.harakiri")}, message: "= 40 s"},
		{name: "keepalive timeout with keepalive false", mut: func(p *placementv1.Placement) {
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{HTTPKeepAlive: new(false), HTTPKeepAliveTimeout: new(int32(5))}}
		}, want: []fieldErr{forbidden("spec.apiServer.uwsgi.httpKeepAliveTimeout")}},
		{name: "Recreate with rollingUpdate", mut: func(p *placementv1.Placement) {
			deployment(p).Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{}}
		}, want: []fieldErr{forbidden("spec.deployment.strategy.rollingUpdate")}},
		{name: "autoscaling without target", mut: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5}
		}, want: []fieldErr{required("spec.autoscaling")}},
		{name: "autoscaling target above 100", mut: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(101))}
		}, want: []fieldErr{invalid("spec.autoscaling.targetCPUUtilization")}},
		{name: "autoscaling target below 1", mut: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetMemoryUtilization: new(int32(0))}
		}, want: []fieldErr{invalid("spec.autoscaling.targetMemoryUtilization")}},
		{name: "autoscaling min above max", mut: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(6)), MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		}, want: []fieldErr{invalid("spec.autoscaling.minReplicas")}},
		{name: "autoscaling implicit min above max", mut: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 2, TargetCPUUtilization: new(int32(80))}
		}, want: []fieldErr{invalid("spec.autoscaling.maxReplicas")}, message: "minReplicas defaults to deployment.replicas (3)"},
		{name: "networkPolicy empty ingress", mut: func(p *placementv1.Placement) {
			p.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{}
		}, want: []fieldErr{required("spec.networkPolicy.ingress")}},
		{name: "gateway hostname and parentRef empty", mut: func(p *placementv1.Placement) {
			p.Spec.Gateway = &serviceapi.GatewaySpec{}
		}, want: []fieldErr{required("spec.gateway.hostname"), required("spec.gateway.parentRef.name")}},
		{name: "keystoneEndpoint unset", mut: func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "" },
			want: []fieldErr{required("spec.keystoneEndpoint")}},
		{name: "keystoneEndpoint unparseable", mut: func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "http://key stone:5000" },
			want: []fieldErr{invalid("spec.keystoneEndpoint")}, message: "must be a valid URL"},
		{name: "keystoneEndpoint scheme", mut: func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "ftp://keystone" },
			want: []fieldErr{invalid("spec.keystoneEndpoint")}, message: "scheme must be http or https"},
		{name: "keystoneEndpoint without host", mut: func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "https:///v3" },
			want: []fieldErr{invalid("spec.keystoneEndpoint")}, message: "must include a host"},
		{name: "keystonePublicEndpoint without host", mut: func(p *placementv1.Placement) { p.Spec.KeystonePublicEndpoint = "http://" },
			want: []fieldErr{invalid("spec.keystonePublicEndpoint")}, message: "must include a host"},
		{name: "keystonePublicEndpoint CRLF", mut: func(p *placementv1.Placement) {
			p.Spec.KeystonePublicEndpoint = "http://k/\r\nx"
		}, want: []fieldErr{invalid("spec.keystonePublicEndpoint")}},
		{name: "region CRLF", mut: func(p *placementv1.Placement) { p.Spec.Region = "One\nauth_strategy = noauth" },
			want: []fieldErr{invalid("spec.region")}, message: "must not contain CR or LF"},
		{name: "service user identity CRLF", mut: func(p *placementv1.Placement) {
			u := &p.Spec.ServiceUser
			u.Username, u.ProjectName, u.UserDomainName, u.ProjectDomainName = "a\n", "b\r", "c\n", "d\r\n"
		}, want: []fieldErr{invalid("spec.serviceUser.projectDomainName"), invalid("spec.serviceUser.projectName"),
			invalid("spec.serviceUser.userDomainName"), invalid("spec.serviceUser.username")}},
		{name: "logging format", mut: func(p *placementv1.Placement) { p.Spec.Logging.Format = "xml" },
			want: []fieldErr{notSupp("spec.logging.format")}},
		{name: "logging level", mut: func(p *placementv1.Placement) { p.Spec.Logging.Level = "TRACE" },
			want: []fieldErr{notSupp("spec.logging.level")}},
		{name: "per-logger empty name", mut: func(p *placementv1.Placement) {
			p.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{"": "INFO"}
		}, want: []fieldErr{invalid("spec.logging.perLoggerLevels[]")}},
		{name: "per-logger bad level", mut: func(p *placementv1.Placement) {
			p.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{"amqp": "LOUD"}
		}, want: []fieldErr{notSupp("spec.logging.perLoggerLevels[amqp]")}},
		{name: "per-logger CRLF name", mut: func(p *placementv1.Placement) {
			p.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{"a\nb": "INFO"}
		}, want: []fieldErr{invalid("spec.logging.perLoggerLevels[a\nb]")}},
		{name: "secretStoreRef name empty", mut: func(p *placementv1.Placement) {
			p.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: "ClusterSecretStore"}
		}, want: []fieldErr{required("spec.secretStoreRef.name")}},
		{name: "secretStoreRef kind", mut: func(p *placementv1.Placement) {
			p.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: "Vault", Name: "v"}
		}, want: []fieldErr{notSupp("spec.secretStoreRef.kind")}},
		{name: "request above limit", mut: func(p *placementv1.Placement) {
			deployment(p).Resources.Requests[corev1.ResourceMemory] = resource.MustParse("2Gi")
		}, want: []fieldErr{invalid("spec.deployment.resources.requests[memory]")}, message: "memory request must not exceed limit"},
		{name: "spread selector with other labels", mut: func(p *placementv1.Placement) {
			deployment(p).TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
				spread(&metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "placement"}})}
		}, want: []fieldErr{invalid("spec.deployment.topologySpreadConstraints[0].labelSelector")},
			message: "must be exactly matchLabels {app.kubernetes.io/instance: placement, app.kubernetes.io/name: placement} " +
				"with no matchExpressions; got matchLabels {app.kubernetes.io/name: placement}"},
		{name: "spread selector with matchExpressions", mut: func(p *placementv1.Placement) {
			deployment(p).TopologySpreadConstraints = []corev1.TopologySpreadConstraint{spread(nil), spread(&metav1.LabelSelector{
				MatchLabels:      map[string]string{"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "placement"},
				MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "x", Operator: metav1.LabelSelectorOpExists}}})}
		}, want: []fieldErr{invalid("spec.deployment.topologySpreadConstraints[0].labelSelector"),
			invalid("spec.deployment.topologySpreadConstraints[1].labelSelector")}, message: "got no labelSelector"},
		{name: "spread constraint without its required fields", mut: func(p *placementv1.Placement) {
			deployment(p).TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{LabelSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "placement"}}}}
		}, want: []fieldErr{required("spec.deployment.topologySpreadConstraints[0].maxSkew"),
			required("spec.deployment.topologySpreadConstraints[0].topologyKey"),
			required("spec.deployment.topologySpreadConstraints[0].whenUnsatisfiable")}},
	}
}

func TestSpecRules(t *testing.T) {
	for _, tc := range specRules() {
		t.Run(tc.name, func(t *testing.T) {
			p := valid()
			var old *placementv1.Placement
			if tc.old != nil {
				old = valid()
				tc.old(old)
			}
			tc.mut(p)
			errs := Spec(p, old)
			if got := summarize(errs); !slices.Equal(got, summarize(wantList(tc.want))) {
				t.Fatalf("errors = %v, want %v\n(%v)", got, tc.want, errs)
			}
			if tc.message != "" && !strings.Contains(errs[0].Detail, tc.message) {
				t.Errorf("detail %q does not contain %q", errs[0].Detail, tc.message)
			}
		})
	}
}

func wantList(want []fieldErr) field.ErrorList {
	out := make(field.ErrorList, 0, len(want))
	for _, w := range want {
		out = append(out, &field.Error{Type: w.Type, Field: w.Path})
	}
	return out
}

// The admission path: catalogs from the embedded files, PriorityClasses from
// a fake client.

func testCatalogs(t *testing.T) *extraconfig.Catalogs {
	t.Helper()
	cats, err := catalog.Load()
	if err != nil {
		t.Fatalf("catalog.Load: %v", err)
	}
	return cats
}

func newValidator(t *testing.T, funcs *interceptor.Funcs) *Validator {
	t.Helper()
	return &Validator{Reader: admissiontest.FakeReader(placementv1.AddToScheme, funcs), Catalogs: testCatalogs(t)}
}

// statusErrors unpacks the 422 Invalid about a Placement into its causes.
func statusErrors(t *testing.T, err error) []fieldErr {
	t.Helper()
	return admissiontest.Causes(t, err, placementv1.GroupVersion.WithKind("Placement").GroupKind())
}

func TestValidatorValid_FakeClient(t *testing.T) {
	v := newValidator(t, nil)
	p := valid()
	p.Spec.Deployment.PriorityClassName = new(admissiontest.PriorityClass)
	warnings, err := v.ValidateCreate(context.Background(), p)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("create: warnings %v, err %v", warnings, err)
	}
	warnings, err = v.ValidateUpdate(context.Background(), p.DeepCopy(), p)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("update: warnings %v, err %v", warnings, err)
	}
	if w, err := v.ValidateDelete(context.Background(), p); err != nil || w != nil {
		t.Fatalf("delete: %v %v", w, err)
	}
}

func TestValidatorPriorityClassMissing_FakeClient(t *testing.T) {
	v := newValidator(t, nil)
	p := valid()
	p.Spec.Deployment.PriorityClassName = new("no-such-class")
	_, err := v.ValidateCreate(context.Background(), p)
	if got, want := statusErrors(t, err), []fieldErr{admissiontest.NotFound("spec.deployment.priorityClassName")}; !slices.Equal(got, want) {
		t.Fatalf("errors = %v, want %v", got, want)
	}
}

func TestValidatorPriorityClassLookupFailure_FakeClient(t *testing.T) {
	boom := errors.New("etcd unavailable")
	v := newValidator(t, &interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
		return boom
	}})
	p := valid()
	p.Spec.Deployment.PriorityClassName = new(admissiontest.PriorityClass)
	_, err := v.ValidateCreate(context.Background(), p)
	if !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "etcd unavailable") {
		t.Fatalf("err = %v, want InternalError naming the cause", err)
	}
}

func TestValidatorExtraConfig_FakeClient(t *testing.T) {
	cases := []struct {
		name     string
		release  string
		extra    map[string]map[string]string
		want     []fieldErr
		message  string
		warnings []string
	}{
		{name: "rejected keys", release: "2025.2", extra: map[string]map[string]string{
			"api": {"auth_strategy": "noauth2"}, "DEFAULT": {"auth_strategy": "noauth2"}, "keystone_authtoken": {"password": "s3cret"},
		}, want: []fieldErr{forbidden("spec.extraConfig[DEFAULT][auth_strategy]"), forbidden("spec.extraConfig[api][auth_strategy]"),
			forbidden("spec.extraConfig[keystone_authtoken][password]")},
			message: "auth_strategy is managed via the operator (disabling Keystone authentication"},
		{name: "unknown option", release: "2025.2", extra: map[string]map[string]string{"placement": {"no_such_option": "1"}},
			want:    []fieldErr{invalid("spec.extraConfig[placement][no_such_option]")},
			message: "no such option in the placement 2025.2 option catalog"},
		{name: "unknown section", release: "2026.1", extra: map[string]map[string]string{"nova": {"a": "1", "b": "2"}},
			want:    []fieldErr{invalid("spec.extraConfig[nova]")},
			message: "no such section in the placement 2026.1 option catalog"},
		{name: "section only in the newer catalog", release: "2025.2",
			extra: map[string]map[string]string{"workarounds": {"optimize_for_wide_provider_trees": "true"}},
			want:  []fieldErr{invalid("spec.extraConfig[workarounds]")}, message: "placement 2025.2"},
		{name: "same section in the newer catalog", release: "2026.1",
			extra: map[string]map[string]string{"workarounds": {"optimize_for_wide_provider_trees": "true"}}},
		{name: "dash spelling unknown", release: "2025.2", extra: map[string]map[string]string{"placement": {"max-allocation-candidates": "1"}},
			want: []fieldErr{invalid("spec.extraConfig[placement][max-allocation-candidates]")}},
		{name: "lower-case default section unknown", release: "2025.2", extra: map[string]map[string]string{"default": {"debug": "true"}},
			want: []fieldErr{invalid("spec.extraConfig[default]")}},
		{name: "auth plugin option not rendered", release: "2025.2", extra: map[string]map[string]string{"keystone_authtoken": {"user_domain_id": "x"}},
			want: []fieldErr{invalid("spec.extraConfig[keystone_authtoken][user_domain_id]")}},
		{name: "deprecated with replacement", release: "2025.2", extra: map[string]map[string]string{"DEFAULT": {"logfile": "/x"}},
			warnings: []string{"[DEFAULT] logfile is deprecated, replaced by [DEFAULT] log_file"}},
		{name: "owned keys honoured, no catalog check", release: "2025.2", extra: map[string]map[string]string{
			"DEFAULT": {"debug": "true"}, "keystone_authtoken": {"region_name": "r"}, "oslo_policy": {"policy_file": "/p"}}},
		{name: "current options", release: "2026.1", extra: map[string]map[string]string{
			"placement": {"max_allocation_candidates": "1000"}, "oslo_policy": {"enforce_scope": "true"}}},
		{name: "release without catalog", release: "2024.2", extra: map[string]map[string]string{
			"placement": {"no_such_option": "1"}, "nova": {"x": "1"}},
			warnings: []string{"no option catalog for placement release 2024.2; extraConfig options not checked"}},
		{name: "release without catalog still refuses rejected keys", release: "2024.1",
			extra:    map[string]map[string]string{"api": {"auth_strategy": "noauth2"}},
			want:     []fieldErr{forbidden("spec.extraConfig[api][auth_strategy]")},
			warnings: []string{"no option catalog for placement release 2024.1; extraConfig options not checked"}},
		{name: "empty section and key", release: "2025.2", extra: map[string]map[string]string{"": {"a": "1"}, "placement": {"": "1"}},
			want: []fieldErr{invalid("spec.extraConfig[]"), invalid("spec.extraConfig[placement][]")}},
		{name: "CRLF in section, key and value", release: "2025.2", extra: map[string]map[string]string{
			"a\nb": {"k": "v"}, "placement": {"k\r": "v", "max_allocation_candidates": "1\n[api]\nauth_strategy = noauth2"}},
			want: []fieldErr{invalid("spec.extraConfig[a\nb]"), invalid("spec.extraConfig[placement][k\r]"),
				invalid("spec.extraConfig[placement][max_allocation_candidates]")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newValidator(t, nil)
			p := valid()
			p.Spec.OpenStackRelease = tc.release
			p.Spec.ExtraConfig = tc.extra
			warnings, err := v.ValidateCreate(context.Background(), p)
			if got := statusErrors(t, err); !slices.Equal(got, summarize(wantList(tc.want))) {
				t.Fatalf("errors = %v, want %v (%v)", got, tc.want, err)
			}
			if tc.message != "" && !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q does not contain %q", err, tc.message)
			}
			if !slices.Equal(warnings, tc.warnings) {
				t.Errorf("warnings = %q, want %q", warnings, tc.warnings)
			}
			if err != nil && strings.Contains(err.Error(), "auth_strategy = noauth2") || err != nil && strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error echoes a value: %v", err)
			}
		})
	}
}

func TestValidatorUnparseableReleaseWarnsOnce_FakeClient(t *testing.T) {
	v := newValidator(t, nil)
	p := valid()
	p.Spec.OpenStackRelease = "zed"
	p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"a": "1", "b": "2"}, "x": {"y": "z"}}
	warnings, err := v.ValidateCreate(context.Background(), p)
	if err != nil || len(warnings) != 1 {
		t.Fatalf("warnings %q, err %v; want exactly one warning", warnings, err)
	}
}

func TestValidatorUpdateCatalogCheck_FakeClient(t *testing.T) {
	unknown := map[string]map[string]string{"placement": {"no_such_option": "1"}}
	cases := []struct {
		name      string
		old, new  func(p *placementv1.Placement)
		wantError bool
	}{
		{name: "unchanged extraConfig and release skip the catalog",
			old: func(p *placementv1.Placement) { p.Spec.ExtraConfig = unknown },
			new: func(p *placementv1.Placement) { p.Spec.ExtraConfig = unknown; p.Spec.Region = "changed" }},
		{name: "changed extraConfig checks the catalog",
			old: func(p *placementv1.Placement) { p.Spec.ExtraConfig = unknown },
			new: func(p *placementv1.Placement) {
				p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"no_such_option": "2"}}
			}, wantError: true},
		{name: "changed release checks the catalog",
			old:       func(p *placementv1.Placement) { p.Spec.ExtraConfig = unknown; p.Spec.OpenStackRelease = "2025.2" },
			new:       func(p *placementv1.Placement) { p.Spec.ExtraConfig = unknown; p.Spec.OpenStackRelease = "2026.1" },
			wantError: true},
		{name: "unchanged extraConfig still refuses rejected keys",
			old: func(p *placementv1.Placement) {
				p.Spec.ExtraConfig = map[string]map[string]string{"api": {"auth_strategy": "noauth2"}}
			},
			new: func(p *placementv1.Placement) {
				p.Spec.ExtraConfig = map[string]map[string]string{"api": {"auth_strategy": "noauth2"}}
			}, wantError: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := newValidator(t, nil)
			old, p := valid(), valid()
			tc.old(old)
			tc.new(p)
			warnings, err := v.ValidateUpdate(context.Background(), old, p)
			if (err != nil) != tc.wantError {
				t.Fatalf("err = %v, wantError %v", err, tc.wantError)
			}
			if len(warnings) != 0 {
				t.Errorf("warnings = %q", warnings)
			}
		})
	}
	// Same update as a create: refused, so the skip above is what admitted it.
	v := newValidator(t, nil)
	p := valid()
	p.Spec.ExtraConfig = unknown
	if _, err := v.ValidateCreate(context.Background(), p); err == nil {
		t.Fatal("create with an unknown option admitted")
	}
}

func TestValidatorAccumulatesAllViolations_FakeClient(t *testing.T) {
	v := newValidator(t, nil)
	p := valid()
	p.Spec.Image.Digest = "sha256:" + strings.Repeat("1", 64)
	p.Spec.Region = "a\nb"
	p.Spec.Deployment.PriorityClassName = new("missing")
	p.Spec.Deployment.Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{}}
	p.Spec.ExtraConfig = map[string]map[string]string{
		"keystone_authtoken": {"password": "x"},
		"placement":          {"bogus": "1"},
		"DEFAULT":            {"logfile": "/x"},
	}
	warnings, err := v.ValidateCreate(context.Background(), p)
	want := []fieldErr{
		forbidden("spec.deployment.strategy.rollingUpdate"),
		forbidden("spec.extraConfig[keystone_authtoken][password]"),
		invalid("spec.extraConfig[placement][bogus]"),
		invalid("spec.image"),
		invalid("spec.region"),
		admissiontest.NotFound("spec.deployment.priorityClassName"),
	}
	slices.SortFunc(want, func(a, b fieldErr) int { return strings.Compare(a.String(), b.String()) })
	if got := statusErrors(t, err); !slices.Equal(got, want) {
		t.Fatalf("causes = %v, want %v", got, want)
	}
	if !apierrors.IsInvalid(err) {
		t.Errorf("IsInvalid(%v) = false", err)
	}
	if !strings.Contains(err.Error(), `Placement.placement.openstack.c5c3.io "placement" is invalid`) {
		t.Errorf("message = %v", err)
	}
	// Warnings survive a refusal, so the user sees them together.
	if len(warnings) != 1 || !strings.Contains(warnings[0], "[DEFAULT] logfile is deprecated") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestValidatorAdmitsTerminatingUpdate_FakeClient(t *testing.T) {
	v := newValidator(t, nil)
	old := valid()
	old.Spec.Deployment.PriorityClassName = new("deleted-class")
	p := old.DeepCopy()
	p.Finalizers = nil
	if _, err := v.ValidateUpdate(context.Background(), old, p); err == nil {
		t.Fatal("live update with a missing PriorityClass admitted")
	}
	now := metav1.Now()
	old.DeletionTimestamp, p.DeletionTimestamp = &now, &now
	if w, err := v.ValidateUpdate(context.Background(), old, p); err != nil || len(w) != 0 {
		t.Fatalf("finalizer removal of a terminating Placement: warnings %q, err %v", w, err)
	}
}
