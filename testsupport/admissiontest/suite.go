// Package admissiontest runs an operator's webhooks on a real kube-apiserver
// and holds the admission cases every service kind shares, so each
// operator's tests add only its kind's own rules.
package admissiontest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	ctrlwebhook "sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Options describe an admission suite's control plane.
type Options struct {
	// CRDPaths and WebhookPaths are the operator's generated manifests;
	// config/crd and config/webhook of the operator when empty.
	CRDPaths, WebhookPaths []string
	AddToScheme            func(*runtime.Scheme) error
	// Register adds the operator's webhooks to a manager serving only them.
	Register func(ctrl.Manager) error
	// Objects are created before the tests run, after Namespace and PriorityClass.
	Objects []client.Object
}

// Suite is the running control plane as the tests use it.
type Suite struct {
	// Client talks to the API server and records its warnings.
	Client   client.Client
	Warnings *WarningRecorder
}

// Namespace holds the cases' objects, and PriorityClass exists, in every suite.
const (
	Namespace     = "admission"
	PriorityClass = "existing-priority"
)

// Main starts one kube-apiserver and etcd with the CRDs and webhook
// configurations installed and a manager serving the webhooks, hands the
// suite to ready, runs the tests and stops it all; it returns the exit code.
func Main(m *testing.M, o Options, ready func(*Suite)) int {
	// A fuzz worker runs only the fuzz target; a control plane per worker
	// would stall the fuzzer.
	flag.Parse()
	if w := flag.Lookup("test.fuzzworker"); w != nil && w.Value.String() == "true" {
		return m.Run()
	}
	ctrl.SetLogger(logr.Discard())
	if len(o.CRDPaths) == 0 {
		o.CRDPaths = []string{filepath.Join("..", "..", "config", "crd")}
	}
	if len(o.WebhookPaths) == 0 {
		o.WebhookPaths = []string{filepath.Join("..", "..", "config", "webhook")}
	}
	env, cfg, err := testenv.Start(testenv.Options{CRDPaths: o.CRDPaths, WebhookPaths: o.WebhookPaths})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := start(ctx, env.WebhookInstallOptions, cfg, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ready(s)
	return m.Run()
}

func start(ctx context.Context, wo envtest.WebhookInstallOptions, cfg *rest.Config, o Options) (*Suite, error) {
	scheme := managerconfig.NewScheme(o.AddToScheme)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: ctrlwebhook.NewServer(ctrlwebhook.Options{
			Host: wo.LocalServingHost, Port: wo.LocalServingPort, CertDir: wo.LocalServingCertDir,
		}),
	})
	if err != nil {
		return nil, err
	}
	if err := o.Register(mgr); err != nil {
		return nil, err
	}
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
		}
	}()
	if err := waitForWebhookServer(mgr); err != nil {
		return nil, err
	}
	s := &Suite{Warnings: &WarningRecorder{}}
	clientCfg := rest.CopyConfig(cfg)
	clientCfg.WarningHandlerWithContext = s.Warnings
	if s.Client, err = client.New(clientCfg, client.Options{Scheme: scheme}); err != nil {
		return nil, err
	}
	for _, obj := range append([]client.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: Namespace}},
		&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: PriorityClass}, Value: 1000},
	}, o.Objects...) {
		if err := s.Client.Create(ctx, obj); err != nil {
			return nil, err
		}
	}
	return s, nil
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

// WarningRecorder collects the Warning headers of API responses.
type WarningRecorder struct {
	mu   sync.Mutex
	msgs []string
}

// HandleWarningHeaderWithContext records one warning.
func (w *WarningRecorder) HandleWarningHeaderWithContext(_ context.Context, _ int, _, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, text)
}

// Take returns and clears the recorded warnings; the tests run sequentially.
func (w *WarningRecorder) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	out, w.msgs = w.msgs, nil
	return out
}

// Admit creates obj, wants it admitted and returns the request's warnings.
func (s *Suite) Admit(t *testing.T, obj client.Object) []string {
	t.Helper()
	s.Warnings.Take()
	if err := s.Client.Create(context.Background(), obj); err != nil {
		t.Fatalf("refused: %v", err)
	}
	return s.Warnings.Take()
}
