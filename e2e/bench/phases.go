package bench

import (
	"context"
	"fmt"
	"sort"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// converge starts the operator, creates the CRs and times them to Ready;
// the operator then settles and stops.
func (s *scenario) converge(ctx context.Context, res *ScenarioResult) error {
	p, err := s.startOperator(ctx, defaultSyncPeriod)
	if err != nil {
		return err
	}
	defer func() { _ = p.Stop(time.Minute) }()
	s.progress("convergence: creating %d %s", s.n, s.op.GVK.Kind)
	before, err := s.snap(ctx, p)
	if err != nil {
		return err
	}
	if err := s.createCRs(ctx); err != nil {
		return err
	}
	if err := s.waitAllReady(ctx, waitTimeout(s.n)); err != nil {
		return err
	}
	after, err := s.snap(ctx, p)
	if err != nil {
		return err
	}
	res.Convergence = s.measure(before, after)
	s.progress("convergence: %.1fs", res.Convergence.WallSeconds)
	// Passes still queued (requeues of waits that have since resolved) run
	// before the restart, so they are nobody's steady-state figure.
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return err
	}
	return p.Stop(time.Minute)
}

// steadyState starts a new operator process over the Ready CRs, whose
// first pass over each is a pass over unchanged inputs (a full resync with
// cold caches), and updates the unrelated Secret beside every CR meanwhile.
// The process stays up for the next phases.
func (s *scenario) steadyState(ctx context.Context, res *ScenarioResult) (*OperatorProcess, error) {
	s.progress("steady state: new operator process, one unrelated Secret update per CR")
	rvBefore, err := s.versions(ctx)
	if err != nil {
		return nil, err
	}
	before, err := s.snap(ctx, nil)
	if err != nil {
		return nil, err
	}
	p, err := s.startOperator(ctx, defaultSyncPeriod)
	if err != nil {
		return nil, err
	}
	stop := func(err error) (*OperatorProcess, error) {
		_ = p.Stop(time.Minute)
		return nil, err
	}
	if err := s.waitPasses(ctx, p, float64(s.n), waitTimeout(s.n)); err != nil {
		return stop(err)
	}
	if err := s.touchUnrelated(ctx, 1); err != nil {
		return stop(err)
	}
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return stop(err)
	}
	after, err := s.snap(ctx, p)
	if err != nil {
		return stop(err)
	}
	rvAfter, err := s.versions(ctx)
	if err != nil {
		return stop(err)
	}
	res.SteadyState = s.measure(before, after)
	res.SteadyState.ResourceVersionChanges = nonNil(rvBefore.Changes(rvAfter))
	return p, nil
}

// periodicResync runs an operator process with a short resync period and
// measures from its settling after start until every informer has resynced
// at least once. An informer resyncs every period (jittered by up to 10%),
// the first time after one or two periods, depending on whether its
// handler was added before its watch started.
func (s *scenario) periodicResync(ctx context.Context) (*Phase, error) {
	period := s.cfg.ResyncPeriod
	s.progress("periodic resync: operator process resyncing every %s", period)
	started := time.Now()
	p, err := s.startOperator(ctx, period)
	if err != nil {
		return nil, err
	}
	defer func() { _ = p.Stop(time.Minute) }()
	if err := s.waitPasses(ctx, p, float64(s.n), waitTimeout(s.n)); err != nil {
		return nil, err
	}
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return nil, err
	}
	rvBefore, err := s.versions(ctx)
	if err != nil {
		return nil, err
	}
	before, err := s.snap(ctx, p)
	if err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Until(started.Add(period*22/10 + time.Second))):
	}
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return nil, err
	}
	after, err := s.snap(ctx, p)
	if err != nil {
		return nil, err
	}
	rvAfter, err := s.versions(ctx)
	if err != nil {
		return nil, err
	}
	ph := s.measure(before, after)
	ph.ResourceVersionChanges = nonNil(rvBefore.Changes(rvAfter))
	if ph.Passes < float64(s.n) {
		return nil, fmt.Errorf("only %.0f passes over %d CRs in %.0fs: no resync happened", ph.Passes, s.n, ph.WallSeconds)
	}
	return &ph, p.Stop(time.Minute)
}

// rotate changes one credential per CR and times each CR's Deployment to
// rolled out at a new generation.
func (s *scenario) rotate(ctx context.Context, p *OperatorProcess) (*Rotation, error) {
	s.progress("rotation: one credential per CR")
	gens, err := s.deploymentGenerations(ctx)
	if err != nil {
		return nil, err
	}
	before, err := s.snap(ctx, p)
	if err != nil {
		return nil, err
	}
	type result struct {
		rolled map[client.ObjectKey]time.Time
		err    error
	}
	done := make(chan result, 1)
	go func() {
		r, err := s.waitRolled(ctx, waitTimeout(s.n)*2, gens)
		done <- result{r, err}
	}()
	updated := make([]time.Time, s.n)
	err = parallel(ctx, s.n, s.cfg.Workers, func(ctx context.Context, i int) error {
		if err := s.op.Rotate(ctx, s.client, crNamespace(i), s.op.Name, 1); err != nil {
			return err
		}
		updated[i] = time.Now()
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := <-done
	if r.err != nil {
		return nil, r.err
	}
	if err := s.waitAllReady(ctx, waitTimeout(s.n)); err != nil {
		return nil, err
	}
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return nil, err
	}
	after, err := s.snap(ctx, p)
	if err != nil {
		return nil, err
	}
	lat := make([]float64, 0, s.n)
	for i := range s.n {
		lat = append(lat, r.rolled[s.op.Deployment(crNamespace(i), s.op.Name)].Sub(updated[i]).Seconds())
	}
	sort.Float64s(lat)
	rot := &Rotation{Phase: s.measure(before, after),
		RolledP50Seconds: rank(lat, 0.5), RolledP95Seconds: rank(lat, 0.95), RolledMaxSeconds: lat[len(lat)-1]}
	rot.WritesPerCR = rot.MutatingRequests / float64(s.n)
	return rot, nil
}

// rank is the nearest-rank q-quantile of sorted values.
func rank(sorted []float64, q float64) float64 {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// memory samples the operator, adds the unrelated objects and samples again.
func (s *scenario) memory(ctx context.Context, p *OperatorProcess) (*Memory, error) {
	m := &Memory{CRs: s.n, UnrelatedSecrets: s.cfg.UnrelatedObjects, UnrelatedConfigMaps: s.cfg.UnrelatedObjects}
	var err error
	if m.Without, err = p.Memory(ctx); err != nil {
		return nil, err
	}
	s.progress("memory: creating %d unrelated Secrets and %d ConfigMaps", m.UnrelatedSecrets, m.UnrelatedConfigMaps)
	if err := s.createUnrelated(ctx, s.cfg.UnrelatedObjects); err != nil {
		return nil, err
	}
	// The informers receive the events within moments; the passes the
	// Secret events may cause settle before the second sample.
	time.Sleep(5 * time.Second)
	if err := s.waitQuiet(ctx, p, waitTimeout(s.n)); err != nil {
		return nil, err
	}
	if m.With, err = p.Memory(ctx); err != nil {
		return nil, err
	}
	if m.CachedSecrets, err = p.CachedSecrets(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
