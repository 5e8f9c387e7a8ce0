package localrun

import (
	"sync"
	"time"
)

// JobGate holds the Job pods of one namespace before their command runs,
// until the test lets their Job run: a test can then act (kill the
// operator, abort an upgrade) while a Job is known to be pending.
type JobGate struct {
	r  *Runner
	ns string

	mu  sync.Mutex
	let map[string]bool
}

// HoldJobs holds every Job pod of namespace ns from now on, until the
// gate lets its Job run or is opened.
func (r *Runner) HoldJobs(ns string) *JobGate {
	g := &JobGate{r: r, ns: ns, let: map[string]bool{}}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gates == nil {
		r.gates = map[string]*JobGate{}
	}
	r.gates[ns] = g
	return g
}

// Let lets the pods of Job job run (now, or when they start).
func (g *JobGate) Let(job string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.let[job] = true
}

// Open removes the gate: every Job pod of the namespace runs.
func (g *JobGate) Open() {
	g.r.mu.Lock()
	defer g.r.mu.Unlock()
	if g.r.gates[g.ns] == g {
		delete(g.r.gates, g.ns)
	}
}

func (g *JobGate) lets(job string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.let[job]
}

// waitGate returns once the pods of Job job in namespace ns may run, or
// the runner stops (false).
func (r *Runner) waitGate(ns, job string) bool {
	for {
		r.mu.Lock()
		g := r.gates[ns]
		r.mu.Unlock()
		if g == nil || g.lets(job) {
			return true
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-r.quit():
			return false
		}
	}
}
