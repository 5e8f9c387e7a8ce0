package glance_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestUpgradeAcrossLaunchModes: 2025.2 (eventlet glance-api) to 2026.1
// (uWSGI) through the real glance-manage db expand, migrate and contract
// Jobs. The operator is killed in every phase while that phase's Job is
// held, the Job runs while no operator is up, and the restarted operator
// goes on from the phase it left: each phase's Job is created once and
// counted once, the Deployment rolls from the eventlet command to uwsgi
// and the API answers throughout the roll (the new pod is Ready only once
// its process serves), and the Glance ends Ready on 2026.1.
func TestUpgradeAcrossLaunchModes(t *testing.T) {
	s := newSite(t, "2025.2")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	if cmd := s.apiCommand(); cmd != "glance-api" {
		t.Fatalf("2025.2 runs %q, want the eventlet glance-api", cmd)
	}
	gate := env.Machine.Runner.HoldJobs(s.NS)
	defer gate.Open()
	sampler := s.sampleAPI()
	s.update(func(g *glancev1.Glance) { g.Spec.OpenStackRelease, g.Spec.Image.Tag = "2026.1", "2026.1" })

	jobs := map[string]types.UID{}
	for _, phase := range []struct{ status, job, reason string }{
		{glancev1.PhaseExpanding, "expand", "ExpandInProgress"},
		{glancev1.PhaseMigrating, "migrate", "MigrateInProgress"},
		{glancev1.PhaseRollingUpdate, "", ""},
		{glancev1.PhaseContracting, "contract", "ContractInProgress"},
	} {
		s.phase(phase.status)
		if phase.job == "" {
			// The roll goes on without the operator: the Deployment was
			// applied in the pass that entered the phase.
			env.Op.Kill()
			poll.Must(t, env.Op.Start())
			continue
		}
		s.condition(conditions.TypeDatabaseReady, metav1.ConditionFalse, phase.reason)
		name := s.Name + "-db-" + phase.job
		jobs[name] = s.job(name).UID
		env.Op.Kill()
		gate.Let(name)
		s.jobSucceeded(name)
		poll.Must(t, env.Op.Start())
	}
	// At rest on 2026.1 the db-sync Job runs again on the new image (its
	// pod template changed): let it through the gate.
	gate.Let(s.Name + "-db-sync")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	served, failed := sampler.stop()

	g := s.glance()
	if g.Status.InstalledRelease != "2026.1" || g.Status.TargetRelease != "" || g.Status.UpgradePhase != "" {
		t.Errorf("status after the upgrade: installed %q, target %q, phase %q", g.Status.InstalledRelease, g.Status.TargetRelease, g.Status.UpgradePhase)
	}
	if cmd := s.apiCommand(); cmd != "uwsgi" {
		t.Errorf("2026.1 runs %q, want uwsgi", cmd)
	}
	for name, uid := range jobs {
		if got := s.job(name).UID; got != uid {
			t.Errorf("Job %s was created again (uid %s, then %s)", name, uid, got)
		}
	}
	events := suite.Events(t, env.K8s, s.NS, "Glance", s.Name)
	for _, reason := range []string{"UpgradeInitiated", "ExpandComplete", "MigrateComplete", "DeploymentRolloutComplete", "UpgradeComplete"} {
		if events[reason] != 1 {
			t.Errorf("%s events = %d, want 1 (have %v)", reason, events[reason], events)
		}
	}
	if len(served) < 2 {
		t.Errorf("the API answered from %d process(es) during the upgrade, want the old and the new: %v", len(served), served)
	}
	if len(failed) > 0 {
		t.Errorf("the API did not answer %d time(s) during the upgrade: %v", len(failed), failed)
	}
}

// TestUpgradeAbortedBeforeContract: with the migrate Job held, the release
// and image are set back; the operator deletes the phase Jobs, clears the
// upgrade, re-syncs the installed release and the Glance is Ready on
// 2025.2 with the eventlet API.
func TestUpgradeAbortedBeforeContract(t *testing.T) {
	s := newSite(t, "2025.2")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	gate := env.Machine.Runner.HoldJobs(s.NS)
	defer gate.Open()
	s.update(func(g *glancev1.Glance) { g.Spec.OpenStackRelease, g.Spec.Image.Tag = "2026.1", "2026.1" })
	s.phase(glancev1.PhaseExpanding)
	gate.Let(s.Name + "-db-expand")
	s.phase(glancev1.PhaseMigrating)
	s.condition(conditions.TypeDatabaseReady, metav1.ConditionFalse, "MigrateInProgress")

	s.update(func(g *glancev1.Glance) { g.Spec.OpenStackRelease, g.Spec.Image.Tag = "2025.2", "2025.2" })
	suite.WaitEvent(t, env.K8s, s.NS, "Glance", s.Name, "UpgradeAborted", waitLong)
	gate.Open()
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	g := s.glance()
	if g.Status.InstalledRelease != "2025.2" || g.Status.TargetRelease != "" || g.Status.UpgradePhase != "" {
		t.Errorf("status after the abort: installed %q, target %q, phase %q", g.Status.InstalledRelease, g.Status.TargetRelease, g.Status.UpgradePhase)
	}
	for _, phase := range []string{"expand", "migrate", "contract"} {
		var j batchv1.Job
		if err := env.K8s.Get(t.Context(), client.ObjectKey{Namespace: s.NS, Name: s.Name + "-db-" + phase}, &j); err == nil && j.DeletionTimestamp.IsZero() {
			t.Errorf("Job %s left after the abort", j.Name)
		}
	}
	if cmd := s.apiCommand(); cmd != "glance-api" {
		t.Errorf("after the abort the API runs %q, want the eventlet glance-api", cmd)
	}
	if n := suite.Events(t, env.K8s, s.NS, "Glance", s.Name)["UpgradeComplete"]; n != 0 {
		t.Errorf("UpgradeComplete recorded %d times after an abort", n)
	}
}

// update changes the Glance, retrying on conflicts.
func (s *site) update(change func(*glancev1.Glance)) {
	s.T.Helper()
	g := s.glance()
	poll.Update(s.T, env.K8s, g, time.Minute, func() { change(g) })
}

// phase waits until status.upgradePhase is phase.
func (s *site) phase(phase string) {
	s.T.Helper()
	poll.Until(s.T, waitLong, func() error {
		if g := s.glance(); g.Status.UpgradePhase != phase {
			return fmt.Errorf("upgradePhase %q, want %q", g.Status.UpgradePhase, phase)
		}
		return nil
	})
}

// job waits for the Job name.
func (s *site) job(name string) *batchv1.Job {
	s.T.Helper()
	var j batchv1.Job
	poll.Until(s.T, waitLong, func() error { return env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: name}, &j) })
	return &j
}

// jobSucceeded waits until the Job controller reports the Job succeeded.
func (s *site) jobSucceeded(name string) {
	s.T.Helper()
	poll.Until(s.T, waitLong, func() error {
		if j := s.job(name); j.Status.Succeeded < 1 {
			return fmt.Errorf("job %s: %+v", name, j.Status)
		}
		return nil
	})
}

// apiCommand is the first word of the API container's command in the
// Deployment.
func (s *site) apiCommand() string {
	s.T.Helper()
	d := s.deployment()
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == "glance-api" && len(c.Command) > 0 {
			return c.Command[0]
		}
	}
	return ""
}

// sampler asks the Glance's API for /healthcheck every 250 ms, where the
// CR's probe-URL annotation (the stand-in for its Service) points.
type sampler struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	served map[string]int
	failed []string
}

func (s *site) sampleAPI() *sampler {
	ctx, cancel := context.WithCancel(s.Ctx)
	sm := &sampler{cancel: cancel, done: make(chan struct{}), served: map[string]int{}}
	hc := &http.Client{Timeout: 10 * time.Second}
	go func() {
		defer close(sm.done)
		for ctx.Err() == nil {
			var g glancev1.Glance
			err := env.K8s.Get(ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &g)
			url := g.Annotations[probe.URLAnnotation]
			switch {
			case ctx.Err() != nil:
			case err != nil:
				sm.fail(time.Now().Format(time.StampMilli) + " reading the Glance: " + err.Error())
			case url == "":
				sm.fail(time.Now().Format(time.StampMilli) + " no serving API process")
			default:
				sm.get(ctx, hc, url)
			}
			select {
			case <-ctx.Done():
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	return sm
}

func (sm *sampler) get(ctx context.Context, hc *http.Client, url string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"healthcheck", nil)
	if err != nil {
		sm.fail(err.Error())
		return
	}
	resp, err := hc.Do(req)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		sm.fail(time.Now().Format(time.StampMilli) + " " + err.Error())
		return
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		sm.fail(fmt.Sprintf("%s %s: %d", time.Now().Format(time.StampMilli), url, resp.StatusCode))
		return
	}
	sm.mu.Lock()
	sm.served[url]++
	sm.mu.Unlock()
}

func (sm *sampler) fail(msg string) {
	sm.mu.Lock()
	defer sm.mu.Unlock()
	sm.failed = append(sm.failed, msg)
}

// stop ends the sampling and returns the answers per API URL and the
// failed samples.
func (sm *sampler) stop() (map[string]int, []string) {
	sm.cancel()
	<-sm.done
	sm.mu.Lock()
	defer sm.mu.Unlock()
	return sm.served, sm.failed
}

// deployment reads the Glance's API Deployment.
func (s *site) deployment() *appsv1.Deployment {
	s.T.Helper()
	var d appsv1.Deployment
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &d))
	return &d
}
