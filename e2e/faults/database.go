package faults

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// The database server goes away, first while the API runs, then while the
// db-sync Job of a config change runs. Its MariaDB turns not Ready (the
// stand-in follows the real server as mariadb-operator follows its
// StatefulSet), so the CR reports DatabaseReady=False/ClusterNotReady and
// Ready=False, and nothing running is rolled. Once the server is back (with
// its data) the CR converges without a manual step: the held db-sync,
// which waited for the database, completes, and no Job is created twice.
func (s Subject[T, P]) databaseOutage(t *testing.T) {
	site, key := s.readySite(t)
	running := Observe(t, site.C, key)
	uids := watchUIDs(t, site.C, site.NS)
	up := true
	t.Cleanup(func() {
		if !up {
			if err := s.Env.DB.Resume(); err != nil {
				t.Errorf("starting the database server again: %v", err)
			}
		}
	})
	outage := func() {
		t.Helper()
		poll.Must(t, s.Env.DB.Halt())
		up = false
		suite.WaitCondition(t, s.Env.K8s, key, s.Conditions, conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonClusterNotReady, Wait)
		suite.WaitCondition(t, s.Env.K8s, key, s.Conditions, conditions.TypeReady, metav1.ConditionFalse, "", Wait)
	}
	back := func() {
		t.Helper()
		poll.Must(t, s.Env.DB.Resume())
		up = true
		s.ready(t, key)
	}

	outage()
	running.Kept(t, "database down")
	back()
	running.Kept(t, "database back")

	gate := s.heldDBSync(t, site, uids)
	outage()
	gate.Open() // the migration command starts and waits for the database
	back()
	createdOnce(t, uids, site)
}
