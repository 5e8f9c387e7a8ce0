// Package pipeline runs an operator's step table: sequential steps where the
// first non-zero outcome or error stops the chain, and parallel groups whose
// members run on forked scopes and each merge back exactly one condition.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/resourceversion"

	"github.com/c5c3/openstack-operators/common/framework/metrics"
)

// Outcome is what a step asks of the pass: zero continues, RequeueAfter stops
// the chain and requeues after that interval, unless Proceed is set: then
// the chain goes on and the pass requeues after the interval at the end.
type Outcome struct {
	RequeueAfter time.Duration
	Proceed      bool
}

// Continue lets the next step run.
func Continue() Outcome { return Outcome{} }

// RequeueAfter stops the chain and requeues after d.
func RequeueAfter(d time.Duration) Outcome { return Outcome{RequeueAfter: d} }

// ProceedAndRequeueAfter lets the next steps run and requeues the pass after
// d (the shortest such interval wins): for a step whose condition is not
// True yet but whose successors do not depend on it becoming True.
func ProceedAndRequeueAfter(d time.Duration) Outcome {
	return Outcome{RequeueAfter: d, Proceed: true}
}

// IsZero reports whether the outcome neither stops nor requeues the pass.
func (o Outcome) IsZero() bool { return o.RequeueAfter == 0 }

// stops reports whether the chain ends here.
func (o Outcome) stops() bool { return o.RequeueAfter != 0 && !o.Proceed }

// Stops reports whether a step that got out and err from a helper must
// return them as they are: an error, or an outcome that ends the chain.
func Stops(out Outcome, err error) bool { return err != nil || out.stops() }

// Earliest keeps the shorter non-zero requeue of a and b.
func Earliest(a, b Outcome) Outcome {
	if a.RequeueAfter == 0 || (b.RequeueAfter != 0 && b.RequeueAfter < a.RequeueAfter) {
		return b
	}
	return a
}

// Scope is an operator's per-pass state. Fork returns a copy whose CR is a deep
// copy, so parallel members cannot race on it.
type Scope[S any] interface {
	Conditions() *[]metav1.Condition
	Fork() S
}

// MetadataCarrier is a Scope whose parallel members may write the CR's
// metadata (a merge-patched annotation, such as a Job UID counted once):
// after the group the scope adopts the newest member's annotations and
// resourceVersion, so the status write that follows does not conflict.
type MetadataCarrier interface {
	CRMeta() metav1.Object
}

// Step is one row of a step table. R is the reconciler, S its scope.
type Step[R any, S Scope[S]] struct {
	Name      string
	Condition string
	Run       func(R, context.Context, S) (Outcome, error)
	members   []Step[R, S]
}

// Parallel groups members that run concurrently after the sequential steps.
func Parallel[R any, S Scope[S]](members ...Step[R, S]) Step[R, S] {
	return Step[R, S]{Name: "parallel", members: members}
}

// Pipeline is an instrumented step table.
type Pipeline[R any, S Scope[S]] struct {
	steps   []Step[R, S]
	metrics *metrics.Set
}

// New builds a pipeline over steps, instrumented with m (nil: not instrumented).
func New[R any, S Scope[S]](m *metrics.Set, steps ...Step[R, S]) *Pipeline[R, S] {
	return &Pipeline[R, S]{steps: steps, metrics: m}
}

// Conditions returns the distinct condition types of the table in order: the
// sub-conditions the Ready aggregate is derived from.
func (p *Pipeline[R, S]) Conditions() []string {
	var out []string
	seen := map[string]bool{}
	for _, st := range p.flat() {
		if st.Condition != "" && !seen[st.Condition] {
			seen[st.Condition] = true
			out = append(out, st.Condition)
		}
	}
	return out
}

// StepNames returns every step name in table order.
func (p *Pipeline[R, S]) StepNames() []string {
	var out []string
	for _, st := range p.flat() {
		out = append(out, st.Name)
	}
	return out
}

func (p *Pipeline[R, S]) flat() []Step[R, S] {
	var out []Step[R, S]
	for _, st := range p.steps {
		if st.members != nil {
			out = append(out, st.members...)
			continue
		}
		out = append(out, st)
	}
	return out
}

// Run executes the table on s.
func (p *Pipeline[R, S]) Run(ctx context.Context, r R, s S) (Outcome, error) {
	var pending Outcome
	for _, st := range p.steps {
		var out Outcome
		var err error
		if st.members != nil {
			out, err = p.runParallel(ctx, r, s, st.members)
		} else {
			out, err = p.runOne(ctx, r, s, st)
		}
		if err != nil || out.stops() {
			return Earliest(pending, Outcome{RequeueAfter: out.RequeueAfter}), err
		}
		pending = Earliest(pending, Outcome{RequeueAfter: out.RequeueAfter})
	}
	return pending, nil
}

func (p *Pipeline[R, S]) runOne(ctx context.Context, r R, s S, st Step[R, S]) (Outcome, error) {
	start := time.Now()
	out, err := st.Run(r, ctx, s)
	if p.metrics != nil {
		p.metrics.Duration.WithLabelValues(st.Name).Observe(time.Since(start).Seconds())
		if err != nil {
			cond := st.Condition
			if cond == "" {
				cond = metrics.UnknownCondition
			}
			p.metrics.Errors.WithLabelValues(st.Name, cond).Inc()
		}
	}
	if err != nil {
		return out, fmt.Errorf("%s: %w", st.Name, err)
	}
	return out, nil
}

// runParallel runs members on forks, merges each member's one condition back
// into s, joins the errors and keeps the shortest non-zero requeue.
func (p *Pipeline[R, S]) runParallel(ctx context.Context, r R, s S, members []Step[R, S]) (Outcome, error) {
	forks := make([]S, len(members))
	outs := make([]Outcome, len(members))
	errs := make([]error, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		forks[i] = s.Fork()
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = p.runOne(ctx, r, forks[i], m)
		}()
	}
	wg.Wait()
	var out Outcome
	adoptMetadata(s, forks)
	for i, m := range members {
		if c := meta.FindStatusCondition(*forks[i].Conditions(), m.Condition); c != nil {
			meta.SetStatusCondition(s.Conditions(), *c)
		}
		if d := outs[i].RequeueAfter; d > 0 && (out.RequeueAfter == 0 || d < out.RequeueAfter) {
			out.RequeueAfter = d
		}
	}
	return out, errors.Join(errs...)
}

// adoptMetadata copies into s the annotations and resourceVersion of the
// fork that wrote the CR last, if any did (see MetadataCarrier).
func adoptMetadata[S Scope[S]](s S, forks []S) {
	into, ok := any(s).(MetadataCarrier)
	if !ok {
		return
	}
	dst := into.CRMeta()
	var newest metav1.Object
	for _, f := range forks {
		m := any(f).(MetadataCarrier).CRMeta()
		if m.GetResourceVersion() == dst.GetResourceVersion() {
			continue
		}
		if newest == nil || newer(m.GetResourceVersion(), newest.GetResourceVersion()) {
			newest = m
		}
	}
	if newest != nil {
		dst.SetAnnotations(newest.GetAnnotations())
		dst.SetResourceVersion(newest.GetResourceVersion())
	}
}

// newer compares resource versions as the integers the API server promises;
// one that does not parse is taken as newer, as a write that happened.
func newer(a, b string) bool {
	c, err := resourceversion.CompareResourceVersion(a, b)
	return err != nil || c > 0
}

// Diagram draws the table for the docs: the sequential steps joined by
// arrows, then the parallel group's members stacked under its branch.
//
//	Secrets ─► Config ─► Deployment ─► ┬ HTTPRoute
//	                                    └ HPA        (parallel)
func (p *Pipeline[R, S]) Diagram() string {
	var b strings.Builder
	for i, st := range p.steps {
		if st.members == nil {
			if i > 0 {
				b.WriteString(" ─► ")
			}
			b.WriteString(st.Name)
			continue
		}
		if i > 0 {
			b.WriteString(" ─► ")
		}
		indent := strings.Repeat(" ", utf8.RuneCountInString(b.String()))
		for j, m := range st.members {
			switch {
			case j == 0 && len(st.members) == 1:
				b.WriteString("─ " + m.Name)
			case j == 0:
				b.WriteString("┬ " + m.Name)
			case j == len(st.members)-1:
				b.WriteString("\n" + indent + "└ " + m.Name + "  (parallel)")
			default:
				b.WriteString("\n" + indent + "├ " + m.Name)
			}
		}
	}
	return b.String() + "\n"
}
