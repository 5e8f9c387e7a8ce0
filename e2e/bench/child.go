package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/go-logr/logr"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/c5c3/openstack-operators/common/perf/secretcache"
)

// readyLine starts the one line the operator process prints on stdout once
// its controller runs: readyLine + " " + the control URL.
const readyLine = "bench-operator-ready"

// ChildOptions configure the operator process.
type ChildOptions struct {
	Kubeconfig string
	SyncPeriod time.Duration
	// ProbeURL is the harness's stand-in for every API the operator probes.
	ProbeURL string
}

// RunOperator is the operator process: it builds the operator's manager in
// this process, serves the harness's control endpoints on loopback and runs
// until stdin closes.
func RunOperator(ctx context.Context, op *Operator, o ChildOptions, stdin io.Reader, stdout io.Writer) error {
	started := make(chan struct{})
	ctrl.SetLogger(logr.New(&startSink{controller: op.Controller, started: started, once: &sync.Once{},
		errors: zap.New(zap.WriteTo(os.Stderr)).GetSink()}))
	cfg, err := clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
	if err != nil {
		return fmt.Errorf("reading kubeconfig: %w", err)
	}
	// What ctrl.GetConfig does: no client-side rate limit, the API server's
	// priority and fairness decides.
	if cfg.QPS == 0 {
		cfg.QPS = -1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		cancel()
	}()

	mgr, err := op.NewManager(ctx, cfg, ManagerOptions{SyncPeriod: o.SyncPeriod, ProbeURL: o.ProbeURL})
	if err != nil {
		return fmt.Errorf("building the %s manager: %w", op.Name, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(ctrlmetrics.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/memory", func(w http.ResponseWriter, _ *http.Request) {
		s, err := sampleMemory()
		writeJSON(w, s, err)
	})
	mux.HandleFunc("/cached-secrets", func(w http.ResponseWriter, r *http.Request) {
		// The namespace informers' count: a list across namespaces would
		// be the API server's answer, not the cache's.
		if sc, ok := mgr.GetCache().(*secretcache.Cache); ok {
			writeJSON(w, sc.Len(), nil)
			return
		}
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
		err := mgr.GetCache().List(r.Context(), list)
		writeJSON(w, len(list.Items), err)
	})
	control, err := serveLoopback(mux)
	if err != nil {
		return err
	}
	defer func() { _ = control.Close() }()

	errc := make(chan error, 1)
	go func() { errc <- mgr.Start(ctx) }()
	select {
	case <-started:
	case err := <-errc:
		return fmt.Errorf("manager stopped before its controller started: %w", err)
	case <-time.After(5 * time.Minute):
		return errors.New("the controller did not start within 5 minutes")
	}
	if _, err := fmt.Fprintf(stdout, "%s http://%s\n", readyLine, control.Addr); err != nil {
		return err
	}
	return <-errc
}

// serveProbeStandIn answers every request with 200 and an OpenStack version
// document: a stand-in for the service APIs, which do not run here. It runs
// in the harness, so its URL, which the operator writes into a condition
// message, stays the same across operator processes.
func serveProbeStandIn() (*loopbackServer, error) {
	return serveLoopback(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"versions": [{"id": "v1.0", "status": "CURRENT"}]}`)
	}))
}

func writeJSON(w http.ResponseWriter, v any, err error) {
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// loopbackServer is an HTTP server on 127.0.0.1 and a free port.
type loopbackServer struct {
	*http.Server
	Addr string
}

func serveLoopback(h http.Handler) (*loopbackServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.Serve(l) }()
	return &loopbackServer{Server: s, Addr: l.Addr().String()}, nil
}

// startSink drops the operator's info logs (the harness reads metrics, not
// logs), forwards errors, and signals when the CR's controller has synced
// its sources and starts its workers.
type startSink struct {
	controller string
	started    chan struct{}
	once       *sync.Once
	errors     logr.LogSink
	values     []any
}

func (s *startSink) Init(logr.RuntimeInfo) {}

func (s *startSink) Enabled(level int) bool { return level == 0 }

func (s *startSink) Info(_ int, msg string, kv ...any) {
	if msg != "Starting workers" {
		return
	}
	all := append(append([]any{}, s.values...), kv...)
	for i := 0; i+1 < len(all); i += 2 {
		if all[i] == "controller" && all[i+1] == s.controller {
			s.once.Do(func() { close(s.started) })
		}
	}
}

func (s *startSink) Error(err error, msg string, kv ...any) {
	s.errors.Error(err, msg, append(append([]any{}, s.values...), kv...)...)
}

func (s *startSink) WithValues(kv ...any) logr.LogSink {
	c := *s
	c.values = append(append([]any{}, s.values...), kv...)
	return &c
}

func (s *startSink) WithName(name string) logr.LogSink {
	c := *s
	c.errors = s.errors.WithName(name)
	return &c
}
