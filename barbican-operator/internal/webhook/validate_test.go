package webhook

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

func withUWSGI(u serviceapi.UWSGISpec) func(b *barbicanv1.Barbican) {
	return func(b *barbicanv1.Barbican) { b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &u} }
}

func withDBClean(d barbicanv1.DBCleanSpec) func(b *barbicanv1.Barbican) {
	return func(b *barbicanv1.Barbican) { b.Spec.DBClean = &d }
}

// barbicanRules: one case per lookup-free rule of barbican-api.md §3.2 (the
// re-checked §1.1 rules, the shared ones and Barbican's own) with the errors
// Spec must report; an empty want is admitted. says is in the first detail.
var barbicanRules = []struct {
	name string
	mut  func(b *barbicanv1.Barbican)
	want []at.FieldErr
	says string
}{
	{"name longer than 43", func(b *barbicanv1.Barbican) { b.Name = strings.Repeat("b", 44) },
		errsOf(at.Invalid("metadata.name")), "must be at most 43 characters, so the CronJob"},
	{"name of 43", func(b *barbicanv1.Barbican) { b.Name = strings.Repeat("b", 43) }, nil, ""},
	{"image tag and digest", func(b *barbicanv1.Barbican) { b.Spec.Image.Digest = "sha256:" + strings.Repeat("a", 64) },
		errsOf(at.Invalid("spec.image")), "exactly one of image.tag or image.digest"},
	{"database clusterRef and host", func(b *barbicanv1.Barbican) { b.Spec.Database.Host = "db.example.org" },
		errsOf(at.Invalid("spec.database")), "exactly one of database.clusterRef or database.host"},
	{"Dynamic without clusterRef", func(b *barbicanv1.Barbican) {
		b.Spec.Database.ClusterRef, b.Spec.Database.Host, b.Spec.Database.CredentialsMode = nil, "db.example.org", "Dynamic"
	}, errsOf(at.Invalid("spec.database.credentialsMode")), "requires database.clusterRef"},
	{"cache servers CR LF", func(b *barbicanv1.Barbican) {
		b.Spec.Cache.ClusterRef, b.Spec.Cache.Servers = nil, []string{"m:11211", "m2:11211\r\n"}
	}, errsOf(at.Invalid("spec.cache.servers[1]")), "must not contain CR or LF"},
	{"region CR LF", func(b *barbicanv1.Barbican) { b.Spec.Region = "RegionOne\n[DEFAULT]" },
		errsOf(at.Invalid("spec.region")), "must not contain CR or LF"},
	{"serviceUser names CR LF", func(b *barbicanv1.Barbican) {
		u := &b.Spec.ServiceUser
		u.Username, u.ProjectName, u.UserDomainName, u.ProjectDomainName = "a\n", "b\r", "c\n", "d\r\n"
	}, errsOf(at.Invalid("spec.serviceUser.projectDomainName"), at.Invalid("spec.serviceUser.projectName"),
		at.Invalid("spec.serviceUser.userDomainName"), at.Invalid("spec.serviceUser.username")), "must not contain CR or LF"},
	{"gateway hostname CR LF", func(b *barbicanv1.Barbican) {
		b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "kms.example.org\n", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	}, errsOf(at.Invalid("spec.gateway.hostname")), "must not contain CR or LF"},
	{"gateway hostname and parentRef empty", func(b *barbicanv1.Barbican) { b.Spec.Gateway = &serviceapi.GatewaySpec{} },
		errsOf(at.Required("spec.gateway.hostname"), at.Required("spec.gateway.parentRef.name")), ""},
	{"logger name CR LF", func(b *barbicanv1.Barbican) {
		b.Spec.Logging = &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"amqp\n": "INFO"}}
	}, errsOf(at.Invalid("spec.logging.perLoggerLevels[amqp\n]")), "must not contain CR or LF"},
	{"logging format and level", func(b *barbicanv1.Barbican) { b.Spec.Logging = &serviceapi.LoggingSpec{Format: "xml", Level: "TRACE"} },
		errsOf(notSupported("spec.logging.format"), notSupported("spec.logging.level")), ""},
	{"keystoneEndpoint scheme", func(b *barbicanv1.Barbican) { b.Spec.KeystoneEndpoint = "ftp://keystone:5000" },
		errsOf(at.Invalid("spec.keystoneEndpoint")), "scheme must be http or https"},
	{"keystonePublicEndpoint without host", func(b *barbicanv1.Barbican) { b.Spec.KeystonePublicEndpoint = "https:///v3" },
		errsOf(at.Invalid("spec.keystonePublicEndpoint")), "must include a host"},
	{"grace below 10", func(b *barbicanv1.Barbican) { b.Spec.Deployment.TerminationGracePeriodSeconds = new(int64(9)) },
		errsOf(at.Invalid("spec.deployment.terminationGracePeriodSeconds")), "must be at least 10"},
	{"preStop not below grace", func(b *barbicanv1.Barbican) { b.Spec.Deployment.PreStopSleepSeconds = new(int64(30)) },
		errsOf(at.Invalid("spec.deployment.preStopSleepSeconds")), "must be less than the termination grace period"},
	{"harakiri not below grace - preStop", withUWSGI(serviceapi.UWSGISpec{Harakiri: new(int32(25))}),
		errsOf(at.Invalid("spec.apiServer.uwsgi.harakiri")), "drain window"},
	{"harakiri below grace - preStop", withUWSGI(serviceapi.UWSGISpec{Harakiri: new(int32(24))}), nil, ""},
	{"keep-alive timeout with keep-alive false", withUWSGI(serviceapi.UWSGISpec{HTTPKeepAlive: new(false), HTTPKeepAliveTimeout: new(int32(5))}),
		errsOf(at.Forbidden("spec.apiServer.uwsgi.httpKeepAliveTimeout")), "httpKeepAlive is false"},
	{"rollingUpdate with Recreate", func(b *barbicanv1.Barbican) {
		b.Spec.Deployment.Strategy = &appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{}}
	}, errsOf(at.Forbidden("spec.deployment.strategy.rollingUpdate")), "Recreate"},
	{"replicas above maxReplicas without minReplicas", func(b *barbicanv1.Barbican) {
		b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 2, TargetCPUUtilization: new(int32(80))}
	}, errsOf(at.Invalid("spec.autoscaling.maxReplicas")), "minReplicas defaults to deployment.replicas (3)"},
	{"autoscaling minReplicas above maxReplicas, no target", func(b *barbicanv1.Barbican) {
		b.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MinReplicas: new(int32(4)), MaxReplicas: 3}
	}, errsOf(at.Invalid("spec.autoscaling.minReplicas"), at.Required("spec.autoscaling")), ""},
	{"request above limit", func(b *barbicanv1.Barbican) {
		b.Spec.Deployment.Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1Gi")
	}, errsOf(at.Invalid("spec.deployment.resources.requests[memory]")), "memory request must not exceed limit"},
	{"spread selector names another service", func(b *barbicanv1.Barbican) {
		b.Spec.Deployment.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
			WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
				"app.kubernetes.io/name": "glance", "app.kubernetes.io/instance": "barbican"}}}}
	}, errsOf(at.Invalid("spec.deployment.topologySpreadConstraints[0].labelSelector")),
		"{app.kubernetes.io/instance: barbican, app.kubernetes.io/name: barbican}"},
	{"networkPolicy without ingress", func(b *barbicanv1.Barbican) { b.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{} },
		errsOf(at.Required("spec.networkPolicy.ingress")), "at least one ingress source"},
	{"secretStoreRef kind", func(b *barbicanv1.Barbican) {
		b.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: "Vault", Name: "v"}
	},
		errsOf(notSupported("spec.secretStoreRef.kind")), ""},
	{"targetClusterRef without name", func(b *barbicanv1.Barbican) { b.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{} },
		errsOf(at.Required("spec.targetClusterRef.name")), ""},
	{"retentionDays below 1", withDBClean(barbicanv1.DBCleanSpec{RetentionDays: new(int32(0))}),
		errsOf(at.Invalid("spec.dbClean.retentionDays")), "must be at least 1 day"},
	{"schedule with six fields", withDBClean(barbicanv1.DBCleanSpec{Schedule: "0 1 0 * * *"}),
		errsOf(at.Invalid("spec.dbClean.schedule")), "must be standard cron"},
	{"schedule out of range", withDBClean(barbicanv1.DBCleanSpec{Schedule: "1 24 * * *"}),
		errsOf(at.Invalid("spec.dbClean.schedule")), `hour "24" must be 0-23`},
	{"schedule @every", withDBClean(barbicanv1.DBCleanSpec{Schedule: "@every 1h"}),
		errsOf(at.Invalid("spec.dbClean.schedule")), "unknown descriptor"},
	{"schedule @daily, retention 1", withDBClean(barbicanv1.DBCleanSpec{Schedule: "@daily", RetentionDays: new(int32(1))}), nil, ""},
	{"schedule with names and steps", withDBClean(barbicanv1.DBCleanSpec{Schedule: "*/15 2 1-7 JAN,JUL mon-fri"}), nil, ""},
	{"plugin key empty, key and value CR LF", func(b *barbicanv1.Barbican) {
		b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin", Config: map[string]string{"": "1", "k\n": "v", "v": "a\rb"}}}
	}, errsOf(at.Invalid("spec.plugins[0].config[]"), at.Invalid("spec.plugins[0].config[k\n]"), at.Invalid("spec.plugins[0].config[v]")),
		"key must not be empty"},
	{"plugin sets a refused key", func(b *barbicanv1.Barbican) {
		b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "ok", Config: map[string]string{"password": "x"}},
			{ConfigSection: "vault_plugin", Config: map[string]string{"root_token_id": at.Secret, "timeout": "5"}}}
	}, errsOf(at.Forbidden("spec.plugins[1].config[root_token_id]")), "[vault_plugin] root_token_id cannot be set by a plugin"},
	{"middleware config CR LF", func(b *barbicanv1.Barbican) {
		b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "audit", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter,
			Config: map[string]string{"audit_map_file": "/etc/x\n[app:apiapp]", "ok": "1"}}}
	}, errsOf(at.Invalid("spec.middleware[0].config[audit_map_file]")), "value must not contain CR or LF"},
}

func TestSpecBarbicanRules(t *testing.T) {
	for _, tc := range barbicanRules {
		t.Run(tc.name, func(t *testing.T) {
			b := valid()
			tc.mut(b)
			errs := Spec(b, nil)
			wantErrs(t, errs, tc.want, tc.says)
			if strings.Contains(fmt.Sprint(errs), at.Secret) {
				t.Errorf("errors echo a secret: %v", errs)
			}
		})
	}
}

// The name bound is create-only; targetClusterRef is compared on update.
func TestSpecOnUpdate(t *testing.T) {
	old := valid()
	old.Name = strings.Repeat("b", 60) // stored before the bound, or inherited
	b := old.DeepCopy()
	b.Spec.Region = "RegionTwo"
	if errs := Spec(b, old); len(errs) != 0 {
		t.Errorf("update of a long-named Barbican refused: %v", errs)
	}
	for name, tc := range map[string]struct{ was, now *serviceapi.TargetClusterRef }{
		"added":   {nil, &serviceapi.TargetClusterRef{Name: "edge"}},
		"removed": {&serviceapi.TargetClusterRef{Name: "edge"}, nil},
		"renamed": {&serviceapi.TargetClusterRef{Name: "edge"}, &serviceapi.TargetClusterRef{Name: "core"}},
	} {
		old.Spec.TargetClusterRef, b.Spec.TargetClusterRef = tc.was, tc.now
		errs := Spec(b, old)
		if got := at.Summarize(errs); !slices.Equal(got, errsOf(at.Invalid("spec.targetClusterRef"))) {
			t.Errorf("targetClusterRef %s: %v", name, errs)
		} else if !strings.Contains(errs[0].Detail, "immutable") {
			t.Errorf("targetClusterRef %s: detail %q", name, errs[0].Detail)
		}
	}
	old.Spec.TargetClusterRef, b.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "edge"}, &serviceapi.TargetClusterRef{Name: "edge"}
	if errs := Spec(b, old); len(errs) != 0 {
		t.Errorf("unchanged targetClusterRef refused: %v", errs)
	}
}

// A Barbican using every optional block correctly: admitted without warnings.
func fullyValid() *barbicanv1.Barbican {
	b := valid()
	b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2026.1", "2026.1"
	b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 4, Threads: 2, HTTPKeepAlive: new(true),
		HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20))}}
	b.Spec.Deployment.PriorityClassName = new(at.PriorityClass)
	b.Spec.Region = "RegionOne"
	b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "kms.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "gw", Namespace: "infra"}}
	b.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{"barbican.plugin": "DEBUG"}
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(30)), Schedule: "@daily", Suspend: true,
		SoftDeleteExpiredSecrets: new(false), CleanUnassociatedProjects: new(true)}
	b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "audit", FilterFactory: "keystonemiddleware.audit:filter_factory",
		Position: serviceapi.MiddlewareAfter, Config: map[string]string{"audit_map_file": "/etc/barbican/api_audit_map.conf"}}}
	b.Spec.Plugins = []serviceapi.PluginSpec{{Name: "pkcs11", ConfigSection: "p11_crypto_plugin", Config: map[string]string{"slot_id": "1"}}}
	b.Spec.ExtraConfig = map[string]map[string]string{
		"DEFAULT":               {"max_allowed_secret_in_bytes": "20000", "host_href": "https://kms.example.org"}, // owned, honoured
		"keystone_authtoken":    {"auth_url": "http://keystone:5000/v3"},                                          // owned, not in the catalog
		"secretstore:vault":     {"anything": "1"},                                                                // a store's section
		"vault_plugin":          {"use_ssl": "true"},                                                              // owned, honoured
		"oslo_messaging_rabbit": {"heartbeat_rate": "3"},
	}
	return b
}

func TestValidatorValidBarbican(t *testing.T) {
	v := barbicanValidator(t, nil)
	for name, b := range map[string]*barbicanv1.Barbican{"bare": valid(), "every block": fullyValid()} {
		if w, err := v.Hook().ValidateCreate(context.Background(), b); err != nil || len(w) != 0 {
			t.Errorf("%s create: warnings %q, err %v", name, w, err)
		}
		if w, err := v.Hook().ValidateUpdate(context.Background(), b.DeepCopy(), b); err != nil || len(w) != 0 {
			t.Errorf("%s update: warnings %q, err %v", name, w, err)
		}
	}
}

// The PriorityClass lookup, aggregation into one 422, and what is never
// checked: a terminating Barbican's update and any delete.
func TestValidatorLookupsAndAggregation(t *testing.T) {
	v := barbicanValidator(t, nil)
	b := valid()
	b.Name = strings.Repeat("b", 44)
	b.Spec.Deployment.PriorityClassName = new("missing")
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{Schedule: "daily"}
	b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logfile": "/x", "bogus": "1"}, "vault_plugin": {"approle_secret_id": at.Secret}}
	w, err := v.Validate(context.Background(), b, nil)
	want := errsOf(at.Invalid("metadata.name"), at.NotFound("spec.deployment.priorityClassName"), at.Invalid("spec.dbClean.schedule"),
		at.Invalid("spec.extraConfig[DEFAULT][bogus]"), at.Forbidden("spec.extraConfig[vault_plugin][approle_secret_id]"))
	if got := at.Causes(t, err, BarbicanKind); !slices.Equal(got, want) {
		t.Errorf("causes = %v, want %v", got, want)
	}
	if err != nil && strings.Contains(err.Error(), at.Secret) {
		t.Errorf("refusal echoes a secret: %v", err)
	}
	if len(w) != 1 || !strings.Contains(w[0], "[DEFAULT] logfile is deprecated, replaced by [DEFAULT] log_file") {
		t.Errorf("warnings = %q", w)
	}
	broken := barbicanValidator(t, &interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
		return errors.New("etcd unavailable")
	}})
	if _, err := broken.Validate(context.Background(), fullyValid(), nil); !apierrors.IsInternalError(err) {
		t.Errorf("failed PriorityClass lookup: %v, want InternalError", err)
	}
	now := metav1.Now()
	b.DeletionTimestamp = &now
	if w, err := v.Hook().ValidateUpdate(context.Background(), b.DeepCopy(), b); err != nil || w != nil {
		t.Errorf("terminating update checked: %q %v", w, err)
	}
	if w, err := v.Hook().ValidateDelete(context.Background(), b); err != nil || w != nil {
		t.Errorf("delete checked: %q %v", w, err)
	}
}
