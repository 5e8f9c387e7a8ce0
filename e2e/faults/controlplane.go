package faults

import (
	"testing"
	"time"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// RideOutLease are the leader-election flags the control-plane scenarios
// run the operator with: a renew deadline longer than a restart takes here
// (SIGTERM, StopGrace, start, the API server serving again). With the
// chart's 10 s an outage that long ends the process by design, and its
// Deployment starts it again (docs/operations.md).
var RideOutLease = []string{"--leader-elect-lease-duration=3m", "--leader-elect-renew-deadline=2m", "--leader-elect-retry-period=5s"}

// A control-plane component (kube-apiserver, or etcd under it) restarts
// twice: once right after a spec change was admitted (mid-pipeline) and
// once while the db-sync Job of a config change is running. The operator
// process rides both out (same process, no restart of its own), the CR
// converges each time, and no Job, ConfigMap or Secret of the namespace is
// created twice: only the db-sync Job is replaced, once, for the config
// change. The time from the API answering again to Ready is logged.
func (s Subject[T, P]) controlPlaneRestarted(component string) func(t *testing.T) {
	return func(t *testing.T) {
		if cluster.Kind() {
			t.Skip("kind: restarting a control-plane container needs the container engine; the local control plane runs this scenario")
		}
		site, key := s.readySite(t)
		poll.Must(t, s.Env.Op.Terminate())
		poll.Must(t, s.Env.Op.StartWith(RideOutLease...))
		t.Cleanup(func() {
			err := s.Env.Op.Terminate()
			if err == nil {
				err = s.Env.Op.Start()
			}
			if err != nil {
				t.Errorf("restoring the operator's flags: %v", err)
			}
		})
		pid := s.Env.Op.Pid()
		uids := watchUIDs(t, site.C, site.NS)

		obj := s.get(t, key)
		poll.Update(t, s.Env.K8s, obj, Wait, func() { s.Change(obj) })
		back := s.restart(t, component, key)
		s.ready(t, key)
		t.Logf("%s restarted mid-pipeline: Ready %s after the API answered again", component, time.Since(back).Round(time.Millisecond))

		gate := s.heldDBSync(t, site, uids)
		back = s.restart(t, component, key)
		gate.Open()
		s.ready(t, key)
		t.Logf("%s restarted during db-sync: Ready %s after the API answered again", component, time.Since(back).Round(time.Millisecond))

		if s.Env.Op.Exited() || s.Env.Op.Pid() != pid {
			t.Errorf("the operator did not ride out the restarts: pid %d, exited %t, now %d", pid, s.Env.Op.Exited(), s.Env.Op.Pid())
		}
		createdOnce(t, uids, site)
	}
}

// restart restarts component and returns when the API server answers a
// read of the CR from etcd again.
func (s Subject[T, P]) restart(t *testing.T, component string, key client.ObjectKey) time.Time {
	t.Helper()
	start := time.Now()
	poll.Must(t, s.Env.Mgmt.Restart(component))
	poll.Until(t, Wait, func() error { return s.Env.K8s.Get(t.Context(), key, P(new(T))) })
	back := time.Now()
	t.Logf("%s: the API answered again %s after the stop began", component, back.Sub(start).Round(time.Millisecond))
	return back
}

// ToggleDebug flips spec.logging.debug, which reaches [DEFAULT] debug of
// the services that render spec.logging (Barbican's is validated only).
func ToggleDebug[P interface {
	ServiceSpec() *serviceapi.ServiceSpec
}](obj P) {
	spec := obj.ServiceSpec()
	if spec.Logging == nil {
		spec.Logging = &serviceapi.LoggingSpec{}
	}
	spec.Logging.Debug = ptr.To(!ptr.Deref(spec.Logging.Debug, false))
}
