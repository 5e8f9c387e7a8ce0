package faults

import (
	"fmt"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// heldDBSync holds the Job pods of the site's namespace, reconfigures its
// CR and returns once the db-sync Job of the new config exists and waits at
// the gate; open the gate to let it run (the test's end opens it too).
func (s Subject[T, P]) heldDBSync(t *testing.T, site *suite.Site, uids *uidLog) *localrun.JobGate {
	t.Helper()
	key := client.ObjectKey{Namespace: site.NS, Name: site.Name}
	job := client.ObjectKey{Namespace: site.NS, Name: site.Name + "-db-sync"}
	var first types.UID
	poll.Until(t, Wait, func() error {
		seen := uids.UIDs("Job " + job.Name)
		if len(seen) == 0 {
			return fmt.Errorf("no Job %s seen yet", job.Name)
		}
		first = seen[0]
		return nil
	})
	gate := s.Env.Machine.Runner.HoldJobs(site.NS)
	t.Cleanup(gate.Open)
	obj := s.get(t, key)
	poll.Update(t, s.Env.K8s, obj, Wait, func() { s.Reconfigure(obj) })
	poll.Until(t, Wait, func() error {
		if err := heldJob(t, site.C, job, first); err != nil {
			return fmt.Errorf("%w; %s", err, suite.Conditions(s.Conditions(s.get(t, key))))
		}
		return nil
	})
	return gate
}

// heldJob returns nil once the Job at key is a new one (not UID old) and
// still running: its pod waits at the runner's gate.
func heldJob(t *testing.T, c client.Client, key client.ObjectKey, old types.UID) error {
	var job batchv1.Job
	if err := c.Get(t.Context(), key, &job); err != nil {
		return err
	}
	if job.UID == old {
		return fmt.Errorf("db-sync Job %s not replaced yet", key.Name)
	}
	if terminal, _, _ := dbsync.Terminal(&job); terminal || job.Status.Active == 0 {
		return fmt.Errorf("db-sync Job %s not running: %+v", key.Name, job.Status)
	}
	return nil
}

// createdOnce stops the log and fails the test for any Job, ConfigMap or
// Secret of the site created more than once; the db-sync Job is replaced
// exactly once, for heldDBSync's config change.
func createdOnce(t *testing.T, uids *uidLog, site *suite.Site) {
	t.Helper()
	uids.end()
	if again := uids.Recreated(map[string]int{"Job " + site.Name + "-db-sync": 2}); len(again) > 0 {
		t.Errorf("objects created more than once (name: UIDs in the order seen): %v", again)
	}
}
