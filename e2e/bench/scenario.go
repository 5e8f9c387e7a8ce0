package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/standins"
)

// Config is one run of the harness.
type Config struct {
	Op *Operator
	// Bin is the harness binary, started again as the operator process.
	Bin string
	// Dir receives the kubeconfig.
	Dir string
	// ResyncPeriod is the resync interval of the operator process of the
	// periodic-resync phase, run for scenarios of at most ResyncMaxN CRs;
	// every other operator process keeps the operator's default.
	ResyncPeriod time.Duration
	ResyncMaxN   int
	// Workers is how many requests the harness sends in parallel.
	Workers int
	// Rotation runs the one-change-per-CR phase.
	Rotation bool
	// UnrelatedObjects > 0 runs the memory phase with that many unrelated
	// Secrets and as many ConfigMaps.
	UnrelatedObjects int
	// Logs receive the operator's and the stand-ins' errors.
	Logs io.Writer
	// Progress receives one line per phase.
	Progress io.Writer
}

// defaultSyncPeriod is the operator's own default (its --sync-period).
const defaultSyncPeriod = 10 * time.Minute

// ScenarioResult is every figure of one scenario (N CRs).
type ScenarioResult struct {
	N int `json:"n"`
	// Convergence: from creating the CRs to all Ready.
	Convergence Phase `json:"convergence"`
	// SteadyState: a full resync, by a new operator process that lists
	// everything and passes once over every Ready CR, plus one update of an
	// unrelated Secret beside each CR.
	SteadyState Phase     `json:"steady_state"`
	Rotation    *Rotation `json:"rotation,omitempty"`
	Memory      *Memory   `json:"memory,omitempty"`
	// Resync: the informers' periodic resync (every ResyncPeriod) over
	// Ready CRs, measured over at least one full resync of every informer.
	Resync *Phase `json:"periodic_resync,omitempty"`
}

// Rotation is one credential change per CR.
type Rotation struct {
	Phase
	// RolledP50/P95/MaxSeconds: from a CR's credential update to its
	// Deployment reported rolled out at a new generation.
	RolledP50Seconds float64 `json:"rolled_p50_seconds"`
	RolledP95Seconds float64 `json:"rolled_p95_seconds"`
	RolledMaxSeconds float64 `json:"rolled_max_seconds"`
	WritesPerCR      float64 `json:"writes_per_cr"`
}

// Memory is the operator with the scenario's CRs, before and after the
// unrelated objects were created.
type Memory struct {
	CRs                 int          `json:"crs"`
	UnrelatedSecrets    int          `json:"unrelated_secrets"`
	UnrelatedConfigMaps int          `json:"unrelated_configmaps"`
	Without             MemorySample `json:"without_unrelated"`
	With                MemorySample `json:"with_unrelated"`
	// CachedSecrets is how many Secrets the operator's cache held after.
	CachedSecrets int `json:"cached_secrets"`
}

// scenario is the state of one run over N CRs.
type scenario struct {
	cfg               Config
	op                *Operator
	n                 int
	cluster           *Cluster
	client            client.WithWatch
	harness, standins *Counter
	probeURL          string
}

// waitTimeout bounds every wait of a scenario over n CRs: about ten times
// what the waits take on two shared cores.
func waitTimeout(n int) time.Duration { return time.Minute + time.Duration(n)*400*time.Millisecond }

// RunScenario measures one scenario on a fresh control plane.
func RunScenario(ctx context.Context, cfg Config, n int) (*ScenarioResult, error) {
	s := &scenario{cfg: cfg, op: cfg.Op, n: n, harness: &Counter{}, standins: &Counter{}}
	cluster, err := StartCluster(cfg.Op, cfg.Dir)
	if err != nil {
		return nil, err
	}
	s.cluster = cluster
	defer func() { _ = cluster.Stop() }()

	hc := rest.CopyConfig(cluster.Config)
	hc.Wrap(s.harness.Wrap)
	if s.client, err = client.NewWithWatch(hc, client.Options{Scheme: cfg.Op.NewScheme()}); err != nil {
		return nil, err
	}
	probe, err := serveProbeStandIn()
	if err != nil {
		return nil, err
	}
	defer func() { _ = probe.Close() }()
	s.probeURL = "http://" + probe.Addr + "/"
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := s.startStandIns(ctx); err != nil {
		return nil, err
	}
	s.progress("preparing inputs")
	if err := s.prepare(ctx); err != nil {
		return nil, err
	}
	res := &ScenarioResult{N: n}
	if err := s.converge(ctx, res); err != nil {
		return nil, fmt.Errorf("convergence: %w", err)
	}
	p, err := s.steadyState(ctx, res)
	if err != nil {
		return nil, fmt.Errorf("steady state: %w", err)
	}
	defer func() { _ = p.Stop(time.Minute) }()
	if cfg.Rotation {
		if res.Rotation, err = s.rotate(ctx, p); err != nil {
			return nil, fmt.Errorf("rotation: %w", err)
		}
	}
	if cfg.UnrelatedObjects > 0 {
		if res.Memory, err = s.memory(ctx, p); err != nil {
			return nil, fmt.Errorf("memory: %w", err)
		}
	}
	if err := p.Stop(time.Minute); err != nil {
		return nil, err
	}
	if n <= cfg.ResyncMaxN {
		if res.Resync, err = s.periodicResync(ctx); err != nil {
			return nil, fmt.Errorf("periodic resync: %w", err)
		}
	}
	return res, nil
}

func (s *scenario) progress(format string, args ...any) {
	if s.cfg.Progress != nil {
		_, _ = fmt.Fprintf(s.cfg.Progress, "bench: %s N=%d: %s\n", time.Now().Format(time.TimeOnly), s.n, fmt.Sprintf(format, args...))
	}
}

// startStandIns runs every stand-in (ESO, mariadb-operator, the Job and
// Deployment controllers) in the harness process, its requests counted.
func (s *scenario) startStandIns(ctx context.Context) error {
	scheme, err := standins.NewScheme()
	if err != nil {
		return err
	}
	sc := rest.CopyConfig(s.cluster.Config)
	sc.Wrap(s.standins.Wrap)
	mgr, err := ctrl.NewManager(sc, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		// One stand-in manager per control plane, several per process; four
		// workers each so they answer promptly at N=500.
		Controller: config.Controller{SkipNameValidation: ptr.To(true), MaxConcurrentReconciles: 4},
	})
	if err != nil {
		return err
	}
	if err := standins.SetupWithManager(mgr, nil); err != nil {
		return err
	}
	if err := standins.SetupWorkloadsWithManager(mgr); err != nil {
		return err
	}
	go func() {
		if err := mgr.Start(ctx); err != nil && s.cfg.Logs != nil {
			_, _ = fmt.Fprintln(s.cfg.Logs, "stand-ins:", err)
		}
	}()
	return nil
}

func (s *scenario) startOperator(ctx context.Context, syncPeriod time.Duration) (*OperatorProcess, error) {
	return StartOperator(ctx, s.cfg.Bin, []string{
		"-operator", s.op.Name, "-kubeconfig", s.cluster.Kubeconfig, "-sync-period", syncPeriod.String(), "-probe-url", s.probeURL,
	}, s.cfg.Logs)
}
