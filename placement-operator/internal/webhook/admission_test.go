package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/testenv"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
)

// One kube-apiserver + etcd for the whole package, with the CRD and both
// webhook configurations installed and a manager serving only the webhooks.
var (
	k8s      client.Client
	warnings = &warningRecorder{}
)

const (
	ns               = "admission"
	validatingHook   = `admission webhook "vplacement.openstack.c5c3.io" denied the request`
	existingPriority = "placement-critical"
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctrl.SetLogger(logr.Discard())
	env, cfg, err := testenv.Start(testenv.Options{
		CRDPaths:     []string{filepath.Join("..", "..", "config", "crd")},
		WebhookPaths: []string{filepath.Join("..", "..", "config", "webhook")},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = env.Stop() }()

	cats, err := catalog.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	scheme := operator.NewScheme(placementv1.AddToScheme)
	wo := env.WebhookInstallOptions
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: ctrlwebhook.NewServer(ctrlwebhook.Options{
			Host: wo.LocalServingHost, Port: wo.LocalServingPort, CertDir: wo.LocalServingCertDir,
		}),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	err = ctrl.NewWebhookManagedBy(mgr, &placementv1.Placement{}).
		WithDefaulter(webhook.Defaulter{}).
		WithValidator(&webhook.Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}).
		Complete()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
		}
	}()
	if err := waitForWebhookServer(mgr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	clientCfg := rest.CopyConfig(cfg)
	clientCfg.WarningHandlerWithContext = warnings
	k8s, err = client.New(clientCfg, client.Options{Scheme: scheme})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, obj := range []client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}},
		&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: existingPriority}, Value: 1000},
	} {
		if err := k8s.Create(ctx, obj); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return m.Run()
}

func waitForWebhookServer(mgr ctrl.Manager) error {
	check := mgr.GetWebhookServer().StartedChecker()
	var err error
	for range 300 {
		if err = check(nil); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("webhook server did not start: %w", err)
}

// warningRecorder collects the Warning headers of API responses.
type warningRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warningRecorder) HandleWarningHeaderWithContext(_ context.Context, _ int, _, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, text)
}

// take returns and clears the recorded warnings; tests run sequentially.
func (w *warningRecorder) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

// newPlacement is the smallest Placement a user would apply.
func newPlacement(name string) *placementv1.Placement {
	return fixture.Bare(ns, name)
}

func withDeployment(p *placementv1.Placement) *shared.DeploymentSpec {
	if p.Spec.Deployment == nil {
		p.Spec.Deployment = &shared.DeploymentSpec{}
	}
	return p.Spec.Deployment
}

func TestAdmitsAndDefaultsMinimal(t *testing.T) {
	ctx := context.Background()
	warnings.take()
	p := newPlacement("minimal")
	if err := k8s.Create(ctx, p); err != nil {
		t.Fatalf("create: %v", err)
	}
	if w := warnings.take(); len(w) != 0 {
		t.Errorf("warnings = %q", w)
	}
	var got placementv1.Placement
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), &got); err != nil {
		t.Fatal(err)
	}
	s := got.Spec
	d := s.Deployment
	if d == nil || d.Replicas != 3 {
		t.Fatalf("deployment = %+v, want replicas 3", d)
	}
	wantRes := corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")},
	}
	for _, pair := range []struct{ got, want corev1.ResourceList }{{d.Resources.Requests, wantRes.Requests}, {d.Resources.Limits, wantRes.Limits}} {
		for name, q := range pair.want {
			if g := pair.got[name]; g.Cmp(q) != 0 {
				t.Errorf("resources %s = %s, want %s", name, g.String(), q.String())
			}
		}
	}
	if s.Cache.Backend != "dogpile.cache.pymemcache" {
		t.Errorf("cache.backend = %q", s.Cache.Backend)
	}
	if l := s.Logging; l == nil || l.Format != "text" || l.Level != "INFO" || l.Debug == nil || *l.Debug {
		t.Errorf("logging = %+v", l)
	}
	u := s.ServiceUser
	if u.Username != "placement" || u.ProjectName != "service" || u.UserDomainName != "Default" ||
		u.ProjectDomainName != "Default" || u.SecretRef.Key != "password" {
		t.Errorf("serviceUser = %+v", u)
	}
	// Schema defaults of the ignored compatibility fields.
	if s.Database.Replicas != 3 || s.Database.StorageSize != "100Gi" || s.Cache.Replicas != 3 {
		t.Errorf("schema defaults: database %d/%s, cache %d", s.Database.Replicas, s.Database.StorageSize, s.Cache.Replicas)
	}
	// Render-time defaults are never persisted.
	if s.APIServer != nil || s.SecretStoreRef != nil || d.TerminationGracePeriodSeconds != nil || d.PreStopSleepSeconds != nil ||
		d.Strategy != nil || d.TopologySpreadConstraints != nil || s.Database.CredentialsMode != "" || s.Database.Port != 0 {
		t.Errorf("render-only defaults persisted: %+v", s)
	}
}

func TestAdmitsAndDefaultsUWSGIBlock(t *testing.T) {
	ctx := context.Background()
	p := newPlacement("uwsgi-defaults")
	p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &shared.UWSGISpec{HTTPKeepAliveTimeout: new(int32(15))}}
	if err := k8s.Create(ctx, p); err != nil {
		t.Fatalf("create: %v", err)
	}
	var got placementv1.Placement
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), &got); err != nil {
		t.Fatal(err)
	}
	u := got.Spec.APIServer.UWSGI
	if u.Processes != 2 || u.Threads != 1 || u.HTTPKeepAlive == nil || !*u.HTTPKeepAlive || *u.HTTPKeepAliveTimeout != 15 || u.Harakiri != nil {
		t.Errorf("uwsgi = %+v", u)
	}
}

func TestAdmitsSetValuesUnchanged(t *testing.T) {
	ctx := context.Background()
	p := newPlacement("explicit-values")
	d := withDeployment(p)
	d.Replicas = 1
	d.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")}
	d.PriorityClassName = new(existingPriority)
	p.Spec.Cache.Backend = "dogpile.cache.memcached"
	p.Spec.Logging = &shared.LoggingSpec{Format: "json", Level: "ERROR", Debug: new(true)}
	p.Spec.ServiceUser.Username = "svc"
	p.Spec.ServiceUser.SecretRef.Key = "pw"
	if err := k8s.Create(ctx, p); err != nil {
		t.Fatalf("create: %v", err)
	}
	var got placementv1.Placement
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), &got); err != nil {
		t.Fatal(err)
	}
	s := got.Spec
	if s.Deployment.Replicas != 1 || len(s.Deployment.Resources.Requests) != 0 || len(s.Deployment.Resources.Limits) != 1 ||
		s.Cache.Backend != "dogpile.cache.memcached" || s.Logging.Format != "json" || s.Logging.Level != "ERROR" ||
		!*s.Logging.Debug || s.ServiceUser.Username != "svc" || s.ServiceUser.SecretRef.Key != "pw" {
		t.Errorf("set values changed: %+v", s)
	}
}

type refusal struct {
	name  string
	mut   func(p *placementv1.Placement)
	layer string   // "S": refused by the CRD schema, "V": by the validating webhook
	want  []string // substrings of the error: the field and the gist
}

// One invalid Placement per rule of placement-api.md §4.2.
func refusals() []refusal {
	return []refusal{
		{"image tag and digest", func(p *placementv1.Placement) { p.Spec.Image.Digest = "sha256:" + strings.Repeat("a", 64) },
			"S", []string{"spec.image", "exactly one of image.tag or image.digest"}},
		{"image neither tag nor digest", func(p *placementv1.Placement) { p.Spec.Image.Tag = "" },
			"S", []string{"spec.image", "exactly one of image.tag or image.digest"}},
		{"database clusterRef and host", func(p *placementv1.Placement) { p.Spec.Database.Host = "db.example.org" },
			"S", []string{"spec.database", "exactly one of database.clusterRef or database.host"}},
		{"Dynamic without clusterRef", func(p *placementv1.Placement) {
			p.Spec.Database.ClusterRef, p.Spec.Database.Host, p.Spec.Database.CredentialsMode = nil, "db.example.org", "Dynamic"
		}, "S", []string{"spec.database", "Dynamic requires database.clusterRef"}},
		{"cache clusterRef and servers", func(p *placementv1.Placement) { p.Spec.Cache.Servers = []string{"m:11211"} },
			"S", []string{"spec.cache", "exactly one of cache.clusterRef or cache.servers"}},
		{"cache clusterRef CRLF", func(p *placementv1.Placement) { p.Spec.Cache.ClusterRef.Name = "m\r\n" },
			"S", []string{"spec.cache", "CR or LF"}},
		{"cache servers LF", func(p *placementv1.Placement) {
			p.Spec.Cache.ClusterRef, p.Spec.Cache.Servers = nil, []string{"m:11211\n"}
		}, "S", []string{"spec.cache", "CR or LF"}},
		{"replicas below 1", func(p *placementv1.Placement) { withDeployment(p).Replicas = -1 },
			"S", []string{"spec.deployment.replicas"}},
		{"grace below 10", func(p *placementv1.Placement) { withDeployment(p).TerminationGracePeriodSeconds = new(int64(9)) },
			"S", []string{"spec.deployment.terminationGracePeriodSeconds"}},
		{"preStop negative", func(p *placementv1.Placement) { withDeployment(p).PreStopSleepSeconds = new(int64(-1)) },
			"S", []string{"spec.deployment.preStopSleepSeconds"}},
		{"preStop not below grace, both set", func(p *placementv1.Placement) {
			d := withDeployment(p)
			d.TerminationGracePeriodSeconds, d.PreStopSleepSeconds = new(int64(20)), new(int64(20))
		}, "S", []string{"spec.deployment", "preStopSleepSeconds (default 5) must be less than"}},
		{"effective preStop not below default grace", func(p *placementv1.Placement) {
			withDeployment(p).PreStopSleepSeconds = new(int64(30))
		}, "S", []string{"spec.deployment", "terminationGracePeriodSeconds (default 30)"}},
		{"harakiri not below drain window", func(p *placementv1.Placement) {
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &shared.UWSGISpec{Harakiri: new(int32(25))}}
		}, "V", []string{"spec.apiServer.uwsgi.harakiri", "drain window"}},
		{"keepalive timeout with keepalive false", func(p *placementv1.Placement) {
			p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &shared.UWSGISpec{HTTPKeepAlive: new(false), HTTPKeepAliveTimeout: new(int32(5))}}
		}, "S", []string{"spec.apiServer.uwsgi", "httpKeepAliveTimeout"}},
		{"Recreate with rollingUpdate", func(p *placementv1.Placement) {
			withDeployment(p).Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{}}
		}, "V", []string{"spec.deployment.strategy.rollingUpdate", "Forbidden"}},
		{"autoscaling without target", func(p *placementv1.Placement) { p.Spec.Autoscaling = &shared.AutoscalingSpec{MaxReplicas: 5} },
			"S", []string{"spec.autoscaling", "at least one of targetCPUUtilization or targetMemoryUtilization"}},
		{"autoscaling target above 100", func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &shared.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(101))}
		}, "S", []string{"spec.autoscaling.targetCPUUtilization"}},
		{"autoscaling min above max", func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &shared.AutoscalingSpec{MinReplicas: new(int32(6)), MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		}, "S", []string{"spec.autoscaling", "minReplicas must not exceed"}},
		{"autoscaling implicit min above max", func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &shared.AutoscalingSpec{MaxReplicas: 2, TargetCPUUtilization: new(int32(80))}
		}, "V", []string{"spec.autoscaling.maxReplicas", "minReplicas defaults to deployment.replicas (3)"}},
		{"networkPolicy empty ingress", func(p *placementv1.Placement) {
			p.Spec.NetworkPolicy = &shared.NetworkPolicySpec{Ingress: []shared.NetworkPolicyIngressSource{}}
		}, "S", []string{"spec.networkPolicy.ingress"}},
		{"gateway hostname empty", func(p *placementv1.Placement) {
			p.Spec.Gateway = &shared.GatewaySpec{ParentRef: shared.GatewayParentRef{Name: "gw"}}
		}, "S", []string{"spec.gateway.hostname: Required value"}},
		{"gateway parentRef empty", func(p *placementv1.Placement) {
			p.Spec.Gateway = &shared.GatewaySpec{Hostname: "placement.example.org"}
		}, "S", []string{"spec.gateway.parentRef: Required value"}},
		{"keystoneEndpoint unset", func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "" },
			"S", []string{"spec.keystoneEndpoint: Required value"}},
		{"keystoneEndpoint scheme", func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "ftp://keystone" },
			"S", []string{"spec.keystoneEndpoint"}},
		{"keystoneEndpoint unparseable", func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "http://key stone:5000" },
			"V", []string{"spec.keystoneEndpoint", "must be a valid URL"}},
		{"keystoneEndpoint without host", func(p *placementv1.Placement) { p.Spec.KeystoneEndpoint = "https:///v3" },
			"V", []string{"spec.keystoneEndpoint", "must include a host"}},
		{"keystonePublicEndpoint without host", func(p *placementv1.Placement) { p.Spec.KeystonePublicEndpoint = "http://" },
			"V", []string{"spec.keystonePublicEndpoint", "must include a host"}},
		{"region CRLF", func(p *placementv1.Placement) { p.Spec.Region = "RegionOne\r\n" },
			"V", []string{"spec.region", "must not contain CR or LF"}},
		{"service user identity CRLF", func(p *placementv1.Placement) { p.Spec.ServiceUser.ProjectDomainName = "Default\n" },
			"V", []string{"spec.serviceUser.projectDomainName", "must not contain CR or LF"}},
		{"logging format", func(p *placementv1.Placement) { p.Spec.Logging = &shared.LoggingSpec{Format: "xml"} },
			"S", []string{"spec.logging.format"}},
		{"logging level", func(p *placementv1.Placement) { p.Spec.Logging = &shared.LoggingSpec{Level: "TRACE"} },
			"S", []string{"spec.logging.level"}},
		{"per-logger empty name", func(p *placementv1.Placement) {
			p.Spec.Logging = &shared.LoggingSpec{PerLoggerLevels: map[string]shared.LogLevel{"": "INFO"}}
		}, "S", []string{"spec.logging.perLoggerLevels", "names must not be empty"}},
		{"per-logger bad level", func(p *placementv1.Placement) {
			p.Spec.Logging = &shared.LoggingSpec{PerLoggerLevels: map[string]shared.LogLevel{"amqp": "LOUD"}}
		}, "S", []string{"spec.logging.perLoggerLevels.amqp", "Unsupported value"}},
		{"per-logger CRLF name", func(p *placementv1.Placement) {
			p.Spec.Logging = &shared.LoggingSpec{PerLoggerLevels: map[string]shared.LogLevel{"amqp\r\n": "INFO"}}
		}, "V", []string{"spec.logging.perLoggerLevels[amqp", "must not contain CR or LF"}},
		{"policyOverrides empty", func(p *placementv1.Placement) { p.Spec.PolicyOverrides = &shared.PolicyOverrides{} },
			"S", []string{"spec.policyOverrides", "needs rules or configMapRef"}},
		{"policyOverrides empty rule value", func(p *placementv1.Placement) {
			p.Spec.PolicyOverrides = &shared.PolicyOverrides{Rules: map[string]string{"admin_api": ""}}
		}, "S", []string{"spec.policyOverrides", "must not be empty"}},
		{"secretStoreRef name empty", func(p *placementv1.Placement) { p.Spec.SecretStoreRef = &shared.SecretStoreRef{} },
			"S", []string{"spec.secretStoreRef.name: Required value"}},
		{"secretStoreRef kind", func(p *placementv1.Placement) {
			p.Spec.SecretStoreRef = &shared.SecretStoreRef{Kind: "Vault", Name: "v"}
		},
			"S", []string{"spec.secretStoreRef.kind"}},
		{"targetClusterRef name empty", func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &shared.TargetClusterRef{} },
			"S", []string{"spec.targetClusterRef.name: Required value"}},
		{"request above limit", func(p *placementv1.Placement) {
			withDeployment(p).Resources = corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")},
				Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}
		}, "V", []string{"spec.deployment.resources.requests[cpu]", "cpu request must not exceed limit"}},
		{"PriorityClass missing", func(p *placementv1.Placement) { withDeployment(p).PriorityClassName = new("no-such-class") },
			"V", []string{"spec.deployment.priorityClassName", "Not found"}},
		{"spread selector", func(p *placementv1.Placement) {
			p.Name = "refused-spread" // the expected selector names the instance
			withDeployment(p).TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
				MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "placement"}}}}
		}, "V", []string{"spec.deployment.topologySpreadConstraints[0].labelSelector: Invalid value: must be exactly matchLabels " +
			"{app.kubernetes.io/instance: refused-spread, app.kubernetes.io/name: placement} with no matchExpressions; got matchLabels {app: placement}"}},
		{"extraConfig empty key", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"": "1"}}
		}, "V", []string{"spec.extraConfig[placement][]", "key must not be empty"}},
		{"extraConfig CRLF value", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"max_allocation_candidates": "1\n[api]"}}
		}, "V", []string{"spec.extraConfig[placement][max_allocation_candidates]", "value must not contain CR or LF"}},
		{"extraConfig rejected owned key", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"password": "s3cret"}}
		}, "V", []string{"spec.extraConfig[keystone_authtoken][password]", "Forbidden", "password is managed via spec.serviceUser.secretRef"}},
		{"extraConfig unknown option", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"no_such_option": "1"}}
		}, "V", []string{"spec.extraConfig[placement][no_such_option]", "no such option in the placement 2025.2 option catalog"}},
		{"extraConfig unknown section", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"nova": {"x": "1"}}
		}, "V", []string{"spec.extraConfig[nova]", "no such section in the placement 2025.2 option catalog"}},
	}
}

func TestRefusesEveryRule(t *testing.T) {
	for i, tc := range refusals() {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlacement(fmt.Sprintf("refused-%02d", i))
			tc.mut(p)
			err := k8s.Create(context.Background(), p)
			checkRefused(t, err, tc.layer, tc.want)
			if s := err; s != nil && strings.Contains(s.Error(), "s3cret") {
				t.Errorf("error echoes a secret value: %v", err)
			}
		})
	}
}

func checkRefused(t *testing.T, err error, layer string, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("admitted")
	}
	if !apierrors.IsInvalid(err) && !apierrors.IsForbidden(err) {
		t.Fatalf("error is %v (reason %s), want Invalid or Forbidden", err, apierrors.ReasonForError(err))
	}
	msg := err.Error()
	if byWebhook := strings.Contains(msg, validatingHook); byWebhook != (layer == "V") {
		t.Errorf("refused by webhook = %v, want layer %s: %v", byWebhook, layer, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not mention %q: %v", w, msg)
		}
	}
}

// All violations the webhook finds arrive together in one 422.
func TestRefusalAccumulates(t *testing.T) {
	p := newPlacement("refused-all")
	p.Spec.Region = "a\nb"
	withDeployment(p).PriorityClassName = new("no-such-class")
	p.Spec.ExtraConfig = map[string]map[string]string{"api": {"auth_strategy": "noauth2"}, "placement": {"bogus": "1"}}
	err := k8s.Create(context.Background(), p)
	checkRefused(t, err, "V", []string{"spec.region", "spec.deployment.priorityClassName",
		"spec.extraConfig[api][auth_strategy]", "spec.extraConfig[placement][bogus]"})
	if status, ok := err.(apierrors.APIStatus); !ok || status.Status().Code != 422 {
		t.Errorf("status = %+v, want code 422", err)
	}
}

func TestUpdateRules(t *testing.T) {
	ctx := context.Background()
	type step func(p *placementv1.Placement)
	cases := []struct {
		name   string
		create step
		update step
		layer  string // "" = admitted
		want   []string
	}{
		{name: "targetClusterRef name changed",
			create: func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: "edge-a"} },
			update: func(p *placementv1.Placement) { p.Spec.TargetClusterRef.Name = "edge-b" },
			layer:  "S", want: []string{"targetClusterRef is immutable"}},
		{name: "targetClusterRef added",
			create: func(*placementv1.Placement) {},
			update: func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: "edge-a"} },
			layer:  "S", want: []string{"targetClusterRef is immutable"}},
		{name: "targetClusterRef removed",
			create: func(p *placementv1.Placement) { p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: "edge-a"} },
			update: func(p *placementv1.Placement) { p.Spec.TargetClusterRef = nil },
			layer:  "S", want: []string{"targetClusterRef is immutable"}},
		{name: "image switched to tag and digest",
			create: func(*placementv1.Placement) {},
			update: func(p *placementv1.Placement) { p.Spec.Image.Digest = "sha256:" + strings.Repeat("b", 64) },
			layer:  "S", want: []string{"exactly one of image.tag or image.digest"}},
		{name: "unknown option kept, unrelated change: catalog skipped",
			create: func(p *placementv1.Placement) {
				p.Spec.OpenStackRelease = "2024.2" // no catalog: admitted with a warning
				p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"no_such_option": "1"}}
			},
			update: func(p *placementv1.Placement) { p.Spec.Region = "RegionTwo" }},
		{name: "unknown option kept, release moves to a catalog release",
			create: func(p *placementv1.Placement) {
				p.Spec.OpenStackRelease = "2024.2"
				p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"no_such_option": "1"}}
			},
			update: func(p *placementv1.Placement) { p.Spec.OpenStackRelease = "2025.2" },
			layer:  "V", want: []string{"spec.extraConfig[placement][no_such_option]", "placement 2025.2 option catalog"}},
		{name: "V rule on update",
			create: func(*placementv1.Placement) {},
			update: func(p *placementv1.Placement) { p.Spec.ServiceUser.Username = "x\ny" },
			layer:  "V", want: []string{"spec.serviceUser.username"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlacement(fmt.Sprintf("update-%02d", i))
			tc.create(p)
			if err := k8s.Create(ctx, p); err != nil {
				t.Fatalf("create: %v", err)
			}
			warnings.take()
			tc.update(p)
			err := k8s.Update(ctx, p)
			if tc.layer == "" {
				if err != nil {
					t.Fatalf("update refused: %v", err)
				}
				if w := warnings.take(); len(w) != 0 {
					t.Errorf("catalog not skipped on update, warnings %q", w)
				}
				return
			}
			checkRefused(t, err, tc.layer, tc.want)
		})
	}
}

func TestAdmitsDeprecatedOptionWithWarning(t *testing.T) {
	warnings.take()
	p := newPlacement("deprecated-option")
	p.Spec.ExtraConfig = map[string]map[string]string{
		"keystone_authtoken": {"memcache_servers": "m:11211"},
		"placement":          {"max_allocation_candidates": "1000"},
	}
	if err := k8s.Create(context.Background(), p); err != nil {
		t.Fatalf("create: %v", err)
	}
	want := []string{"[keystone_authtoken] memcache_servers is deprecated, replaced by [keystone_authtoken] memcached_servers"}
	if got := warnings.take(); !slices.Equal(got, want) {
		t.Errorf("warnings = %q, want %q", got, want)
	}
}

func TestAdmitsReleaseWithoutCatalogWithOneWarning(t *testing.T) {
	warnings.take()
	p := newPlacement("no-catalog")
	p.Spec.OpenStackRelease = "2024.1"
	p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"a": "1", "b": "2"}, "nova": {"c": "3"}}
	if err := k8s.Create(context.Background(), p); err != nil {
		t.Fatalf("create: %v", err)
	}
	got := warnings.take()
	if len(got) != 1 || !strings.Contains(got[0], "no option catalog for placement release 2024.1") {
		t.Errorf("warnings = %q, want exactly one naming the release", got)
	}
}

func TestRefusesReleaseOutsidePattern(t *testing.T) {
	p := newPlacement("bad-release")
	p.Spec.OpenStackRelease = "2025.3"
	checkRefused(t, k8s.Create(context.Background(), p), "S", []string{"spec.openStackRelease"})
}

// A manifest without a required field is refused as that field missing, never
// as an empty value failing its pattern: the defaulting webhook re-encodes the
// object, and that must not put the field back as "" or {}.
func TestRefusesMissingRequiredField(t *testing.T) {
	cases := []struct {
		drop []string                       // path removed from the manifest; an index selects a list item
		with func(p *placementv1.Placement) // adds the optional block the field lives in
		want []string                       // fields reported missing; the dropped one when nil
	}{
		{drop: []string{"spec", "openStackRelease"}},
		{drop: []string{"spec", "keystoneEndpoint"}},
		{drop: []string{"spec", "image"}},
		{drop: []string{"spec", "image", "repository"}},
		{drop: []string{"spec", "database"}},
		{drop: []string{"spec", "database", "database"}},
		{drop: []string{"spec", "database", "secretRef"}},
		{drop: []string{"spec", "database", "secretRef", "name"}},
		{drop: []string{"spec", "database", "clusterRef", "name"}},
		{drop: []string{"spec", "database", "tls", "caBundleSecretRef", "name"}, with: func(p *placementv1.Placement) {
			p.Spec.Database.TLS = &shared.DatabaseTLS{Mode: shared.TLSVerifyCA, CABundleSecretRef: &shared.SecretKeyRef{Name: "db-ca"}}
		}},
		{drop: []string{"spec", "cache"}},
		{drop: []string{"spec", "cache", "clusterRef", "name"}},
		{drop: []string{"spec", "serviceUser"}},
		{drop: []string{"spec", "serviceUser", "secretRef"}},
		{drop: []string{"spec", "serviceUser", "secretRef", "name"}},
		{drop: []string{"spec", "gateway", "hostname"}, with: withGateway},
		{drop: []string{"spec", "gateway", "parentRef"}, with: withGateway},
		{drop: []string{"spec", "gateway", "parentRef", "name"}, with: withGateway},
		{drop: []string{"spec", "secretStoreRef", "name"}, with: func(p *placementv1.Placement) {
			p.Spec.SecretStoreRef = &shared.SecretStoreRef{Kind: shared.SecretStoreKind, Name: "vault"}
		}},
		{drop: []string{"spec", "targetClusterRef", "name"}, with: func(p *placementv1.Placement) {
			p.Spec.TargetClusterRef = &shared.TargetClusterRef{Name: "edge-a"}
		}},
		{drop: []string{"spec", "policyOverrides", "configMapRef", "name"}, with: func(p *placementv1.Placement) {
			p.Spec.PolicyOverrides = &shared.PolicyOverrides{ConfigMapRef: &shared.LocalObjectRef{Name: "policy"}}
		}},
		{drop: []string{"spec", "autoscaling", "maxReplicas"}, with: func(p *placementv1.Placement) {
			p.Spec.Autoscaling = &shared.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		}},
		{drop: []string{"spec", "networkPolicy", "ingress"}, with: withNetworkPolicy},
		{drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "topologyKey"}, with: withSpread},
		{drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "whenUnsatisfiable"}, with: withSpread},
		{drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "maxSkew"}, with: withSpread},
		{drop: []string{"spec"}, want: []string{"spec.cache", "spec.database", "spec.image",
			"spec.keystoneEndpoint", "spec.openStackRelease", "spec.serviceUser"}},
	}
	for i, tc := range cases {
		want := tc.want
		if want == nil {
			want = []string{fieldPath(tc.drop)}
		}
		t.Run(fieldPath(tc.drop), func(t *testing.T) {
			p := newPlacement(fmt.Sprintf("missing-%02d", i))
			if tc.with != nil {
				tc.with(p)
			}
			manifest := asManifest(t, p)
			dropField(t, manifest.Object, tc.drop)
			err := k8s.Create(context.Background(), manifest)
			checkMissing(t, err, want)
		})
	}
}

func withGateway(p *placementv1.Placement) {
	p.Spec.Gateway = &shared.GatewaySpec{Hostname: "placement.example.org", ParentRef: shared.GatewayParentRef{Name: "gw"}}
}

func withNetworkPolicy(p *placementv1.Placement) {
	p.Spec.NetworkPolicy = &shared.NetworkPolicySpec{Ingress: []shared.NetworkPolicyIngressSource{{
		NamespaceSelector: metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "gateway"}}}}}
}

func withSpread(p *placementv1.Placement) {
	withDeployment(p).TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
		MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
			"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": p.Name}}}}
}

// asManifest is p as the JSON map a user's manifest decodes to.
func asManifest(t *testing.T, p *placementv1.Placement) *unstructured.Unstructured {
	t.Helper()
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(raw, &u.Object); err != nil {
		t.Fatal(err)
	}
	u.SetGroupVersionKind(placementv1.GroupVersion.WithKind("Placement"))
	return u
}

// fieldPath spells path as the API server names a field: spec.a[0].b.
func fieldPath(path []string) string {
	var b strings.Builder
	for i, k := range path {
		switch _, err := strconv.Atoi(k); {
		case err == nil:
			b.WriteString("[" + k + "]")
		case i > 0:
			b.WriteString("." + k)
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// dropField removes the field at path; a numeric element indexes a list.
func dropField(t *testing.T, obj map[string]any, path []string) {
	t.Helper()
	var cur any = obj
	for _, k := range path[:len(path)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(c) {
				t.Fatalf("no item %s in %v", k, path)
			}
			cur = c[i]
		}
	}
	m, ok := cur.(map[string]any)
	if _, present := m[path[len(path)-1]]; !ok || !present {
		t.Fatalf("manifest has no %v to drop", path)
	}
	delete(m, path[len(path)-1])
}

// checkMissing wants a 422 whose every cause is one of the fields, reported
// as a missing value; no cause may be a pattern or value check on "". The API
// server's note that it skipped the CEL rules of an invalid object is allowed.
func checkMissing(t *testing.T, err error, fields []string) {
	t.Helper()
	if err == nil {
		t.Fatal("admitted")
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || !apierrors.IsInvalid(err) {
		t.Fatalf("error is %v (reason %s), want Invalid", err, apierrors.ReasonForError(err))
	}
	msg := err.Error()
	for _, f := range fields {
		if !strings.Contains(msg, f+": Required value") {
			t.Errorf("error does not report %s as a Required value: %v", f, msg)
		}
	}
	for _, bad := range []string{"should match", "pattern", `Invalid value: ""`} {
		if strings.Contains(msg, bad) {
			t.Errorf("error contains %q: %v", bad, msg)
		}
	}
	var got []string
	for _, c := range status.Status().Details.Causes {
		if strings.Contains(c.Message, "some validation rules were not checked") {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s", c.Type, c.Field))
	}
	var want []string
	for _, f := range fields {
		want = append(want, fmt.Sprintf("%s %s", metav1.CauseTypeFieldValueRequired, f))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("causes = %q, want %q\n%v", got, want, msg)
	}
}

// A Placement whose PriorityClass disappeared must still be deletable: the
// finalizer is removed by an UPDATE that passes through the webhook.
func TestFinalizerRemovalAfterPriorityClassDeleted(t *testing.T) {
	ctx := context.Background()
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "short-lived"}, Value: 10}
	if err := k8s.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	p := newPlacement("finalizing")
	p.Finalizers = []string{placementv1.Finalizer}
	withDeployment(p).PriorityClassName = new(pc.Name)
	if err := k8s.Create(ctx, p); err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := k8s.Delete(ctx, pc); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Delete(ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), p); err != nil {
		t.Fatal(err)
	}
	p.Finalizers = nil
	if err := k8s.Update(ctx, p); err != nil {
		t.Fatalf("finalizer removal refused: %v", err)
	}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), p); !apierrors.IsNotFound(err) {
		t.Errorf("Placement still present after finalizer removal: %v", err)
	}
}

// An explicit empty spread list disables the defaults; it must survive the
// mutating webhook's re-encoding and come back empty, not absent.
func TestEmptySpreadListSurvivesDefaulting(t *testing.T) {
	ctx := context.Background()
	p := newPlacement("no-spread")
	p.Spec.Deployment = &shared.DeploymentSpec{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{}}
	if err := k8s.Create(ctx, p); err != nil {
		t.Fatalf("create: %v", err)
	}
	var got placementv1.Placement
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(p), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Deployment.TopologySpreadConstraints == nil {
		t.Fatalf("topologySpreadConstraints [] was dropped; the rendered Deployment would get the default spread")
	}
	absent := newPlacement("default-spread")
	if err := k8s.Create(ctx, absent); err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := k8s.Get(ctx, client.ObjectKeyFromObject(absent), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Deployment.TopologySpreadConstraints != nil {
		t.Errorf("absent list came back as %v", got.Spec.Deployment.TopologySpreadConstraints)
	}
}
