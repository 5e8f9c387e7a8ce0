package faults

import (
	"fmt"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// Two processes of the operator run with the chart's leader election (the
// suite's operator leads, a replica waits). The waiting one sends no
// mutating request and reconciles nothing while the leader converges a
// change. The leader is killed (SIGKILL) while a db-sync Job it created is
// running; the replica takes the lease once it expires and converges the
// CR, replacing nothing the leader created. The replica, now leading, is
// stopped with SIGTERM: it gives the lease up as it exits, so the Lease
// names it no more by the time the process is gone, and the restarted
// first process leads again.
func (s Subject[T, P]) leaderFailover(t *testing.T) {
	site, key := s.readySite(t)
	replica, err := s.Env.Op.Replica()
	poll.Must(t, err)
	poll.Must(t, replica.Start())
	t.Cleanup(replica.Kill)
	uids := watchUIDs(t, site.C, site.NS)

	obj := s.get(t, key)
	poll.Update(t, s.Env.K8s, obj, Wait, func() { s.Change(obj) })
	s.ready(t, key)
	idle := scrape(t, replica)
	if n := idle.sum("controller_runtime_reconcile_total", nil); n != 0 {
		t.Errorf("the waiting replica reconciled %v times", n)
	}
	if n := idle.sum("rest_client_requests_total", mutating); n != 0 {
		t.Errorf("the waiting replica sent %v mutating requests", n)
	}
	if scrape(t, s.Env.Op).sum("controller_runtime_reconcile_total", nil) == 0 {
		t.Fatal("the leader's reconcile counter did not move: the comparison proves nothing")
	}

	gate := s.heldDBSync(t, site, uids)
	s.Env.Op.Kill()
	killed := time.Now()
	waitLeads(t, replica, "the replica")
	t.Logf("the replica leads %s after the leader was killed (chart lease duration 15s)", time.Since(killed).Round(time.Millisecond))
	gate.Open()
	s.ready(t, key)
	createdOnce(t, uids, site)

	// A graceful stop gives the lease up: by the time the process has
	// exited, the Lease no longer names it.
	poll.Must(t, s.Env.Op.Start())
	holder := s.leaseHolder(t)
	poll.Must(t, replica.Terminate())
	if now := s.leaseHolder(t); now == holder && holder != "" {
		t.Errorf("the stopped replica still holds the Lease (%s)", holder)
	}
	waitLeads(t, s.Env.Op, "the restarted operator")
}

// waitLeads waits until op reports that it holds the lease.
func waitLeads(t *testing.T, op *suite.Operator, who string) {
	t.Helper()
	poll.Until(t, Wait, func() error {
		if scrape(t, op).sum("leader_election_master_status", nil) != 1 {
			return fmt.Errorf("%s does not lead yet", who)
		}
		return nil
	})
}

// mutating selects the write requests of client-go's request counter.
func mutating(labels map[string]string) bool {
	switch labels["method"] {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// leaseHolder is the holder of the operator's leader-election Lease.
func (s Subject[T, P]) leaseHolder(t *testing.T) string {
	t.Helper()
	var leases coordinationv1.LeaseList
	poll.Must(t, s.Env.K8s.List(t.Context(), &leases, client.InNamespace(s.Env.Op.Namespace())))
	for _, l := range leases.Items {
		if strings.HasSuffix(l.Name, ".openstack.c5c3.io") {
			return ptr.Deref(l.Spec.HolderIdentity, "")
		}
	}
	t.Fatalf("no leader-election Lease in %s", s.Env.Op.Namespace())
	return ""
}

// families is one scrape of an operator process.
type families map[string]*dto.MetricFamily

func scrape(t *testing.T, op *suite.Operator) families {
	t.Helper()
	text, err := op.Metrics()
	poll.Must(t, err)
	parser := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := parser.TextToMetricFamilies(strings.NewReader(text))
	poll.Must(t, err)
	return mfs
}

// sum adds the counter and gauge values of name whose labels keep passes
// (every series when keep is nil).
func (f families) sum(name string, keep func(map[string]string) bool) float64 {
	var total float64
	for _, m := range f[name].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if keep != nil && !keep(labels) {
			continue
		}
		total += m.GetCounter().GetValue() + m.GetGauge().GetValue()
	}
	return total
}
