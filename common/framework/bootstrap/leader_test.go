package bootstrap

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// candidateEnv makes the test binary run Main of leaderOperator with the
// flags in candidateArgs instead of the tests: one operator process.
const (
	candidateEnv  = "C5C3_LEADER_TEST_CANDIDATE"
	candidateArgs = "C5C3_LEADER_TEST_ARGS"
)

// leaderOperator is an operator without controllers: the processes only
// elect a leader, through the same Main, flags and manager as every
// operator.
var leaderOperator = Operator[struct{}]{
	Profile:     service.Profile{Kind: "LeaderTest", Service: "leadertest", ManagedBy: "leadertest-operator"},
	Group:       "leadertest.c5c3.io",
	AddToScheme: func(*runtime.Scheme) error { return nil },
	Setup: func(context.Context, ctrl.Manager, service.Reconciler, *Options) (struct{}, error) {
		return struct{}{}, nil
	},
}

func TestMain(m *testing.M) {
	if os.Getenv(candidateEnv) != "" {
		os.Args = append(os.Args[:1], strings.Fields(os.Getenv(candidateArgs))...)
		Main(leaderOperator)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// candidate is one operator process.
type candidate struct {
	name string
	cmd  *exec.Cmd
	out  *testenv.Buffer
	done chan struct{}
}

// leaseFlags time a lease; every candidate of a phase uses the same.
func leaseFlags(duration, renew, retry string) string {
	return fmt.Sprintf("--leader-elect --leader-elect-lease-duration=%s --leader-elect-renew-deadline=%s --leader-elect-retry-period=%s", duration, renew, retry)
}

func startCandidate(t *testing.T, name, kubeconfig, flags string) *candidate {
	t.Helper()
	c := &candidate{name: name, out: &testenv.Buffer{}, done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$") //nolint:gosec // the test binary itself
	c.cmd.Env = append(os.Environ(), candidateEnv+"=1", "KUBECONFIG="+kubeconfig, "POD_NAMESPACE=default",
		candidateArgs+"="+flags+" --metrics-bind-address=0 --health-probe-bind-address=0 --enable-webhooks=false --clusters-namespace=")
	c.cmd.Stdout, c.cmd.Stderr = c.out, c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = c.cmd.Wait(); close(c.done) }()
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		<-c.done
		if t.Failed() {
			t.Logf("%s output:\n%s", name, c.out.String())
		}
	})
	return c
}

// waitFor waits until f holds, failing the test when a candidate exits
// meanwhile or after a bound far above the lease durations used here.
func waitFor(t *testing.T, what string, f func() bool, running ...*candidate) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, 2*time.Minute, true, func(context.Context) (bool, error) {
		for _, c := range running {
			select {
			case <-c.done:
				return false, fmt.Errorf("%s exited (%v):\n%s", c.name, c.cmd.ProcessState, c.out.String())
			default:
			}
		}
		return f(), nil
	})
	if err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// holder is the lease's holder identity, "" when released or absent.
func holder(t *testing.T, c client.Client) string {
	t.Helper()
	var l coordinationv1.Lease
	err := c.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: leaderOperator.Group}, &l)
	if client.IgnoreNotFound(err) != nil {
		t.Fatal(err)
	}
	if l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// attempting waits until c's elector has started: client-go logs this line
// right before its first try to take the lease.
func (c *candidate) attempting(t *testing.T) {
	t.Helper()
	waitFor(t, c.name+" trying to acquire the lease", func() bool {
		return strings.Contains(c.out.String(), `"Attempting to acquire leader lease..."`)
	}, c)
}

// takesOver waits until the lease has a holder other than previous (the
// one stopped or killed), c's, and returns it.
func (c *candidate) takesOver(t *testing.T, k8s client.Client, previous string) string {
	t.Helper()
	var h string
	waitFor(t, c.name+" taking over from "+previous, func() bool {
		h = holder(t, k8s)
		return h != "" && h != previous
	}, c)
	return h
}

// stop sends sig and waits for the exit; SIGTERM must end it cleanly.
func (c *candidate) stop(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	<-c.done
	if sig == syscall.SIGTERM && !c.cmd.ProcessState.Success() {
		t.Fatalf("%s exited %v after SIGTERM:\n%s", c.name, c.cmd.ProcessState, c.out.String())
	}
}

// Leader election as the chart runs it, with operator processes on a real
// API server: one holds the lease while another tries; a leader stopped
// with SIGTERM gives the lease up, so the other takes over at once (the
// lease of that phase lasts ten minutes: only the release can hand it on
// within the test); a leader killed with SIGKILL blocks the lease until it
// runs out, then the other takes over.
func TestLeaderElectionHandsOver(t *testing.T) {
	env, cfg, err := testenv.Start(testenv.Options{WithoutGatewayAPI: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	user, err := env.ControlPlane.AddUser(envtest.User{Name: "leader-test", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}

	long := leaseFlags("10m", "1m", "500ms")
	a := startCandidate(t, "a", kubeconfig, long)
	var first string
	waitFor(t, "leader a", func() bool { first = holder(t, c); return first != "" }, a)
	b := startCandidate(t, "b", kubeconfig, long)
	b.attempting(t)
	if h := holder(t, c); h != first {
		t.Fatalf("lease holder %q while a (%q) runs", h, first)
	}
	a.stop(t, syscall.SIGTERM)
	second := b.takesOver(t, c, first)

	// A short lease from here on: c takes over from b's release, then d
	// from c's crash once c's lease has run out.
	short := leaseFlags("3s", "2s", "500ms")
	cc := startCandidate(t, "c", kubeconfig, short)
	cc.attempting(t)
	b.stop(t, syscall.SIGTERM)
	third := cc.takesOver(t, c, second)
	d := startCandidate(t, "d", kubeconfig, short)
	d.attempting(t)
	killed := time.Now()
	cc.stop(t, syscall.SIGKILL)
	d.takesOver(t, c, third)
	t.Logf("d took over %s after c was killed (lease 3s)", time.Since(killed).Round(100*time.Millisecond))
}
