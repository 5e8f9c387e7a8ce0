package bootstrap

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/c5c3/openstack-operators/common/framework/admit"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/observability"
	"github.com/c5c3/openstack-operators/common/lib/version"
	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/common/perf/secretcache"
)

// Operator describes one service operator to the shared bootstrap. R is
// what Setup returns: the operator's main reconciler, for tests. The
// binary's name, metrics prefix, event recorder and leader-election lease
// derive from the profile and the API group (common behaviour §0).
type Operator[R any] struct {
	// Profile names the CR, children and API.
	Profile service.Profile
	// Group is the API group, also the leader-election lease's name.
	Group string
	// Periodic are the metrics Job kinds of the operator's CronJob runs
	// (Glance: metrics.JobDBPurge); db_sync is always counted.
	Periodic []string
	// AddToScheme registers the operator's API kinds.
	AddToScheme func(*runtime.Scheme) error
	// Setup registers the operator's controllers (each embedding base) and,
	// when o.EnableWebhooks, its webhooks.
	Setup func(ctx context.Context, mgr ctrl.Manager, base service.Reconciler, o *Options) (R, error)
	// Observe adds the operator's own panels and alerts to the shared
	// dashboard and rules (Observability), and may retitle its Jobs.
	Observe func(*observability.Spec)
	// Collectors are the metrics Setup registers itself beyond the shared
	// vectors, built for the metrics prefix (MetricNames lists them).
	Collectors func(prefix string) []prometheus.Collector
}

// Name is the binary's name, <service>-operator.
func (op Operator[R]) Name() string { return op.Profile.ManagedBy }

// MetricsPrefix prefixes the operator's metric names: <service>_operator.
func (op Operator[R]) MetricsPrefix() string { return op.Profile.Service + "_operator" }

// RecorderName is the events' reporting controller: <service>-controller.
func (op Operator[R]) RecorderName() string { return op.Profile.Service + "-controller" }

// NewManager builds the manager exactly as the binary does, for a program
// that runs the operator in its own process (the e2e suites, the bench).
func (op Operator[R]) NewManager(ctx context.Context, cfg *rest.Config, o *Options) (ctrl.Manager, error) {
	mgr, _, err := New(ctx, cfg, o, op)
	return mgr, err
}

// New builds the manager with the operator's controllers and webhooks.
func New[R any](ctx context.Context, cfg *rest.Config, o *Options, op Operator[R]) (ctrl.Manager, R, error) {
	var none R
	domain, err := clusterDomain(o.ClusterDomain)
	if err != nil {
		return nil, none, err
	}
	if o.LeaderElect {
		if err := leaseTiming(o); err != nil {
			return nil, none, err
		}
	}
	scheme := managerconfig.NewScheme(op.AddToScheme)
	cacheOpts := managerconfig.CacheOptions(op.Profile.ManagedBy, o.WatchNamespaces...)
	cacheOpts.SyncPeriod = &o.SyncPeriod
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme,
		Cache:  cacheOpts,
		// Secret metadata is watched only in the namespaces that hold one
		// of the operator's CRs (docs/decisions/caching.md).
		NewCache:               secretcache.NewFunc(ownKinds(scheme, op.Group)...),
		Client:                 managerconfig.ClientOptions(),
		Metrics:                metricsserver.Options{BindAddress: o.MetricsAddr},
		HealthProbeBindAddress: o.ProbeAddr,
		LeaderElection:         o.LeaderElect,
		LeaderElectionID:       op.Group,
		// The operator's own namespace (POD_NAMESPACE), where the chart's
		// leader-election Role is; in a pod, empty falls back to the
		// ServiceAccount's namespace, outside one it must be set.
		LeaderElectionNamespace: o.OperatorNamespace,
		LeaseDuration:           &o.LeaseDuration,
		RenewDeadline:           &o.RenewDeadline,
		RetryPeriod:             &o.RetryPeriod,
		// A stopping leader (SIGTERM: a rolling update, a drain) gives the
		// lease up, so that the next replica takes over at once instead of
		// after the lease duration. Safe because Main exits as soon as the
		// manager has stopped.
		LeaderElectionReleaseOnCancel: true,
		WebhookServer: admit.Scoped(webhook.NewServer(webhook.Options{Port: o.WebhookPort, CertDir: o.WebhookCertDir}),
			op.Profile.ManagedBy, o.WatchNamespaces),
	})
	if err != nil {
		return nil, none, fmt.Errorf("creating manager: %w", err)
	}
	m := op.Metrics()
	m.Register(metrics.Registry)
	resolver := &targetcluster.Resolver{
		Local:     targetcluster.New("", mgr),
		Namespace: o.ClustersNamespace,
		Reader:    mgr.GetAPIReader(),
		Scheme:    scheme,
		Cluster: func(co *cluster.Options) {
			co.Cache = managerconfig.CacheOptions(op.Profile.ManagedBy)
			co.Client = managerconfig.ClientOptions()
		},
	}
	if err := mgr.Add(resolver); err != nil {
		return nil, none, err
	}
	base := service.Reconciler{
		Client:            mgr.GetClient(),
		Scheme:            scheme,
		Recorder:          mgr.GetEventRecorder(op.RecorderName()),
		Metrics:           m,
		Resolver:          resolver,
		Probe:             probe.NewCache(),
		HTTP:              &http.Client{},
		ClusterDomain:     domain,
		OperatorNamespace: o.OperatorNamespace,
		AbandonGrace:      o.AbandonGrace,
		Profile:           op.Profile,
	}
	if o.ProbeViaAPIServer {
		base.HTTP, base.ProbeURL, err = apiServerProxy(cfg, op.Profile.APIPort)
		if err != nil {
			return nil, none, err
		}
	}
	if o.ProbeURLAnnotation {
		base.ProbeURL = annotatedProbeURL(base.ProbeURL)
	}
	if o.ProbeURL != nil {
		base.ProbeURL = o.ProbeURL
	}
	r, err := op.Setup(ctx, mgr, base, o)
	if err != nil {
		return nil, none, err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return nil, none, err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return nil, none, err
	}
	return mgr, r, nil
}

// ownKinds are the operator's own kinds: one object of every kind of group
// in scheme that is an object (lists and option kinds are not), by kind.
func ownKinds(scheme *runtime.Scheme, group string) []client.Object {
	byKind := map[string]client.Object{}
	for gvk := range scheme.AllKnownTypes() {
		if gvk.Group != group || strings.HasSuffix(gvk.Kind, "List") {
			continue
		}
		if obj, err := scheme.New(gvk); err == nil {
			if o, ok := obj.(client.Object); ok {
				byKind[gvk.Kind] = o
			}
		}
	}
	out := make([]client.Object, 0, len(byKind))
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		out = append(out, byKind[k])
	}
	return out
}

// Run builds the manager and blocks until ctx ends.
func Run[R any](ctx context.Context, cfg *rest.Config, o *Options, op Operator[R]) error {
	if o.OperatorNamespace == "" {
		o.OperatorNamespace = os.Getenv("POD_NAMESPACE")
	}
	mgr, _, err := New(ctx, cfg, o, op)
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// Main is an operator's main function: flags, logging, signal handling, run.
func Main[R any](op Operator[R]) {
	opts := BindFlags(flag.CommandLine, op.Profile, op.Group)
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	v := version.Get()
	if opts.PrintVersion {
		fmt.Println(v.String(op.Name()))
		return
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	ctrl.Log.Info("starting "+op.Name(), v.KeysAndValues()...)
	if len(opts.WatchNamespaces) > 0 {
		ctrl.Log.Info("namespace-scoped: watching only these namespaces; the webhooks refuse "+op.Profile.Kind+"s elsewhere",
			"watchNamespaces", opts.WatchNamespaces)
	}
	if err := Run(ctrl.SetupSignalHandler(), ctrl.GetConfigOrDie(), opts, op); err != nil {
		ctrl.Log.Error(err, op.Name()+" stopped")
		os.Exit(1)
	}
}
