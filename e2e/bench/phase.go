package bench

import (
	"context"
	"os"
	"strings"
	"time"
)

// Phase is what one phase of a scenario cost.
type Phase struct {
	WallSeconds            float64 `json:"wall_seconds"`
	OperatorCPUSeconds     float64 `json:"operator_cpu_seconds"`
	ControlPlaneCPUSeconds float64 `json:"control_plane_cpu_seconds"`
	// HarnessCPUSeconds is the harness process: its clients and the stand-ins.
	HarnessCPUSeconds float64 `json:"harness_cpu_seconds"`
	// Passes are the CR controller's reconciles, whatever their result.
	Passes      float64 `json:"passes"`
	PassesPerCR float64 `json:"passes_per_cr"`
	// Requests are the operator's requests as the API server counted them:
	// its apiserver_request_total delta less the harness's and the
	// stand-ins' requests (each counted as it was sent) and less
	// APIServerOwn.
	Requests         Requests `json:"operator_requests"`
	MutatingRequests float64  `json:"operator_mutating_requests"`
	// APIServerOwn are requests on resources only the API server itself
	// uses here: its identity lease, the endpoints of the "kubernetes"
	// Service it reconciles every 10s, the IPAddress objects it allocates
	// for new Services. The operator's RBAC grants none of them and it runs
	// without leader election.
	APIServerOwn Requests `json:"apiserver_own_requests,omitempty"`
	// ResourceVersionChanges lists the objects of the CR namespaces created,
	// written or deleted in the phase (nil: not checked in this phase).
	ResourceVersionChanges []string `json:"resource_version_changes"`
	// Latency is the quantiles of the histograms observed in the phase.
	Latency map[string]Quantiles `json:"latency,omitempty"`
}

// apiServerOwnResources are written by the API server on its own.
var apiServerOwnResources = map[string]bool{"leases": true, "endpoints": true, "endpointslices": true, "ipaddresses": true}

// snapshot is everything read at one phase boundary.
type snapshot struct {
	at                     time.Time
	api, harness, standins Requests
	op                     Families
	opCPU, cpCPU, selfCPU  float64
}

// snap reads the counters; p is nil when no operator process runs.
func (s *scenario) snap(ctx context.Context, p *OperatorProcess) (snapshot, error) {
	api, err := ScrapeAPIServer(ctx, s.cluster.Config)
	if err != nil {
		return snapshot{}, err
	}
	sn := snapshot{at: time.Now(), api: APIServerRequests(api), harness: s.harness.Snapshot(), standins: s.standins.Snapshot(), op: Families{}}
	if p != nil {
		if sn.op, err = p.Metrics(ctx); err != nil {
			return snapshot{}, err
		}
		if sn.opCPU, err = p.CPU(); err != nil {
			return snapshot{}, err
		}
	}
	if sn.cpCPU, err = ControlPlaneCPU(); err != nil {
		return snapshot{}, err
	}
	if sn.selfCPU, err = processCPU(os.Getpid()); err != nil {
		return snapshot{}, err
	}
	return sn, nil
}

// measure turns two snapshots into a Phase.
func (s *scenario) measure(before, after snapshot) Phase {
	ph := Phase{
		WallSeconds:            after.at.Sub(before.at).Seconds(),
		OperatorCPUSeconds:     after.opCPU - before.opCPU,
		ControlPlaneCPUSeconds: after.cpCPU - before.cpCPU,
		HarnessCPUSeconds:      after.selfCPU - before.selfCPU,
		Requests:               Requests{},
		APIServerOwn:           Requests{},
		Latency:                map[string]Quantiles{},
	}
	ctrlLabel := map[string]string{"controller": s.op.Controller}
	ph.Passes = after.op.Sum("controller_runtime_reconcile_total", ctrlLabel) - before.op.Sum("controller_runtime_reconcile_total", ctrlLabel)
	ph.PassesPerCR = ph.Passes / float64(s.n)

	api := after.api.Minus(before.api)
	others := after.harness.Minus(before.harness)
	for k, v := range after.standins.Minus(before.standins) {
		others[k] += v
	}
	for k, v := range api.Minus(others) {
		_, res := splitKey(k)
		if base, _, _ := strings.Cut(res, "/"); apiServerOwnResources[base] {
			ph.APIServerOwn[k] = v
			continue
		}
		ph.Requests[k] = v
	}
	ph.MutatingRequests = ph.Requests.Mutating()

	steps := s.op.MetricsPrefix + "_reconcile_duration_seconds"
	earlier := before.op.Histograms(steps, "sub_reconciler", nil)
	for name, h := range after.op.Histograms(steps, "sub_reconciler", nil) {
		if q := QuantilesOf(h.Sub(earlier[name])); q.Count > 0 {
			ph.Latency["step "+name] = q
		}
	}
	for series, metric := range map[string][2]string{
		"reconcile (controller-runtime)": {"controller_runtime_reconcile_time_seconds", "controller"},
		"queue wait (workqueue)":         {"workqueue_queue_duration_seconds", "name"},
	} {
		want := map[string]string{metric[1]: s.op.Controller}
		h := after.op.Histograms(metric[0], metric[1], want)[s.op.Controller].Sub(before.op.Histograms(metric[0], metric[1], want)[s.op.Controller])
		if q := QuantilesOf(h); q.Count > 0 {
			ph.Latency[series] = q
		}
	}
	return ph
}

// quietFor is how long the CR controller must be idle to count as settled.
const quietFor = 2 * time.Second

// scrapeInterval spaces the harness's scrapes of the operator while it
// waits: each scrape costs the operator process some CPU.
const scrapeInterval = 500 * time.Millisecond

// waitQuiet waits until the CR controller has run no pass for quietFor, its
// queue is empty and no worker is busy.
func (s *scenario) waitQuiet(ctx context.Context, p *OperatorProcess, timeout time.Duration) error {
	ctrlLabel := map[string]string{"controller": s.op.Controller}
	last, since := -1.0, time.Now()
	return poll(ctx, scrapeInterval, timeout, "the operator to go quiet", func() (bool, error) {
		f, err := p.Metrics(ctx)
		if err != nil {
			return false, err
		}
		passes := f.Sum("controller_runtime_reconcile_total", ctrlLabel)
		busy := f.Sum("workqueue_depth", map[string]string{"name": s.op.Controller}) +
			f.Sum("controller_runtime_active_workers", ctrlLabel)
		if passes != last || busy > 0 {
			last, since = passes, time.Now()
			return false, nil
		}
		return time.Since(since) >= quietFor, nil
	})
}

// waitPasses waits until the CR controller has run at least n passes.
func (s *scenario) waitPasses(ctx context.Context, p *OperatorProcess, n float64, timeout time.Duration) error {
	return poll(ctx, scrapeInterval, timeout, "passes", func() (bool, error) {
		f, err := p.Metrics(ctx)
		if err != nil {
			return false, err
		}
		return f.Sum("controller_runtime_reconcile_total", map[string]string{"controller": s.op.Controller}) >= n, nil
	})
}
