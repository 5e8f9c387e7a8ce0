package manager

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/cluster"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	opmetrics "github.com/c5c3/openstack-operators/common/metrics"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/probe"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
	pwebhook "github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
)

// Identity of the operator.
const (
	MetricsPrefix    = "placement_operator"
	LeaderElectionID = "placement.openstack.c5c3.io"
	RecorderName     = "placement-controller"
)

// New builds the manager with the controller and, if enabled, the webhooks.
func New(ctx context.Context, cfg *rest.Config, o *Options) (ctrl.Manager, *controller.PlacementReconciler, error) {
	domain, err := clusterDomain(o.ClusterDomain)
	if err != nil {
		return nil, nil, err
	}
	cats, err := catalog.Load()
	if err != nil {
		return nil, nil, fmt.Errorf("loading option catalogs: %w", err)
	}
	scheme := operator.NewScheme(placementv1.AddToScheme)
	var namespaces []string
	if o.Namespace != "" {
		namespaces = []string{o.Namespace}
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Cache:                  withSync(operator.CacheOptions(render.ManagedBy, namespaces...), o),
		Client:                 operator.ClientOptions(),
		Metrics:                metricsserver.Options{BindAddress: o.MetricsAddr},
		HealthProbeBindAddress: o.ProbeAddr,
		LeaderElection:         o.LeaderElect,
		LeaderElectionID:       LeaderElectionID,
		// The operator's own namespace (POD_NAMESPACE), where the chart's
		// leader-election Role is; in a pod, empty falls back to the
		// ServiceAccount's namespace, outside one it must be set.
		LeaderElectionNamespace: o.OperatorNamespace,
		WebhookServer:           webhook.NewServer(webhook.Options{Port: o.WebhookPort, CertDir: o.WebhookCertDir}),
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating manager: %w", err)
	}
	m := opmetrics.New(MetricsPrefix, placementv1.ServiceName)
	m.Register(metrics.Registry)
	resolver := &targetcluster.Resolver{
		Local:     targetcluster.Target{Client: mgr.GetClient(), Reader: mgr.GetAPIReader(), Mapper: mgr.GetRESTMapper()},
		Namespace: o.ClustersNamespace,
		Reader:    mgr.GetAPIReader(),
		Scheme:    scheme,
		Cluster: func(co *cluster.Options) {
			co.Cache = operator.CacheOptions(render.ManagedBy)
			co.Client = operator.ClientOptions()
		},
	}
	if err := mgr.Add(resolver); err != nil {
		return nil, nil, err
	}
	r := &controller.PlacementReconciler{
		Client:            mgr.GetClient(),
		Scheme:            scheme,
		Recorder:          mgr.GetEventRecorder(RecorderName),
		Metrics:           m,
		Resolver:          resolver,
		Probe:             probe.NewCache(),
		HTTP:              &http.Client{},
		ClusterDomain:     domain,
		OperatorNamespace: o.OperatorNamespace,
		AbandonGrace:      o.AbandonGrace,
	}
	if o.ProbeViaAPIServer {
		r.HTTP, r.ProbeURL, err = apiServerProxy(cfg)
		if err != nil {
			return nil, nil, err
		}
	}
	if o.ProbeURLAnnotation {
		r.ProbeURL = annotatedProbeURL(r.ProbeURL)
	}
	if err := r.SetupWithManager(ctx, mgr, controller.Options{MaxConcurrentReconciles: o.MaxConcurrentReconciles}); err != nil {
		return nil, nil, err
	}
	if o.EnableWebhooks {
		err := ctrl.NewWebhookManagedBy(mgr, &placementv1.Placement{}).
			WithDefaulter(pwebhook.Defaulter{}).
			WithValidator(&pwebhook.Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}).
			Complete()
		if err != nil {
			return nil, nil, fmt.Errorf("registering webhooks: %w", err)
		}
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return nil, nil, err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return nil, nil, err
	}
	return mgr, r, nil
}

// Run builds the manager and blocks until ctx ends.
func Run(ctx context.Context, cfg *rest.Config, o *Options) error {
	if o.OperatorNamespace == "" {
		o.OperatorNamespace = os.Getenv("POD_NAMESPACE")
	}
	mgr, _, err := New(ctx, cfg, o)
	if err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// withSync applies the resync period to the cache options.
func withSync(c cache.Options, o *Options) cache.Options {
	c.SyncPeriod = &o.SyncPeriod
	return c
}
