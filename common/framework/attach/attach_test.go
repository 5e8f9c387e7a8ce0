package attach_test

import (
	"context"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// child is a child CR for the tests: the shared test CR with its conditions.
type child struct{ testenv.CR }

func (c *child) ChildConditions() []metav1.Condition { return c.Status.Conditions }

func mk(name string, gen int64, deleting bool, conds ...metav1.Condition) child {
	c := child{}
	c.Name, c.Generation, c.Status.Conditions = name, gen, conds
	if deleting {
		now := metav1.Now()
		c.DeletionTimestamp = &now
	}
	return c
}

func ready(status metav1.ConditionStatus, gen int64) metav1.Condition {
	return metav1.Condition{Type: "CredentialsReady", Status: status, ObservedGeneration: gen}
}

// Live drops deleting children and sorts by name; Split keeps only a True
// stamped for the child's current generation.
func TestLiveAndSplit(t *testing.T) {
	items := []child{
		mk("b", 2, false, ready(metav1.ConditionTrue, 2)),
		mk("gone", 1, true, ready(metav1.ConditionTrue, 1)),
		mk("a", 3, false, ready(metav1.ConditionTrue, 2)),
		mk("c", 1, false, ready(metav1.ConditionFalse, 1)),
		mk("d", 1, false),
	}
	live := attach.Live(items)
	if got := attach.Names(live); len(got) != 4 || got[0] != "a" || got[3] != "d" {
		t.Fatalf("Live = %v", got)
	}
	ok, pending, stale := attach.Split(live, "CredentialsReady")
	if got := attach.Names(ok); len(got) != 1 || got[0] != "b" {
		t.Errorf("ready = %v, want [b]", got)
	}
	if len(stale) != 1 || stale[0] != "a" {
		t.Errorf("stale = %v, want [a] (its True is for generation 2 of 3)", stale)
	}
	if len(pending) != 2 || pending[0] != "c" || pending[1] != "d" {
		t.Errorf("pending = %v, want [c d]", pending)
	}
}

// Waiting names what was projected, what waits and why each skip happened.
func TestWaitingMessage(t *testing.T) {
	got := attach.Waiting([]string{"fast"}, []string{"slow"}, attach.Skipped{"odd": "Secret s3 not found"})
	want := "projected: fast; waiting for credentials: slow; odd skipped: Secret s3 not found"
	if got != want {
		t.Errorf("Waiting = %q, want %q", got, want)
	}
}

// Aggregate is True only when every part is True, naming the others.
func TestAggregate(t *testing.T) {
	conds := []metav1.Condition{{Type: "A", Status: metav1.ConditionTrue}, {Type: "B", Status: metav1.ConditionFalse}}
	attach.Aggregate(&conds, 4, "all good", "A", "B")
	if c := conds[len(conds)-1]; c.Type != "Ready" || c.Status != metav1.ConditionFalse || c.Message != "not True: B" || c.ObservedGeneration != 4 {
		t.Errorf("Ready = %+v", c)
	}
	conds[1].Status = metav1.ConditionTrue
	attach.Aggregate(&conds, 4, "all good", "A", "B")
	if c := conds[len(conds)-1]; c.Status != metav1.ConditionTrue || c.Reason != "AllReady" {
		t.Errorf("Ready = %+v", c)
	}
}

// On keeps only the children whose parent targets the cluster that saw the
// event.
func TestOnNarrowsToTheCluster(t *testing.T) {
	targets := map[string]string{"a": "east", "b": "", "c": "west", "d": "east"}
	w := attach.Watches{TargetCluster: func(_ context.Context, k client.ObjectKey) string { return targets[k.Name] }}
	all := func(context.Context, client.Object) []reconcile.Request {
		var out []reconcile.Request
		for _, n := range []string{"a", "b", "c", "d"} {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKey{Namespace: "ns", Name: n}})
		}
		return out
	}
	for cluster, want := range map[string][]string{"east": {"a", "d"}, "": {"b"}, "north": nil} {
		var got []string
		for _, r := range w.On(cluster, all)(context.Background(), nil) {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("cluster %q: %v, want %v", cluster, got, want)
		}
	}
}

// A transient wait carries the skip lines of the previous message, so a
// skip reported before it is not reported again after it.
func TestCarryKeepsTheSkipLines(t *testing.T) {
	skipped := attach.Skipped{"crlf": "value cannot be rendered safely", "tab": "a tab"}
	prev := attach.Waiting([]string{"fast"}, nil, skipped) + "; keeping the last projection"
	got := attach.Carry("waiting for the controller", prev)
	want := "waiting for the controller; crlf skipped: value cannot be rendered safely; tab skipped: a tab"
	if got != want {
		t.Errorf("Carry = %q, want %q", got, want)
	}
	if got := attach.Carry("waiting", "projected: fast"); got != "waiting" {
		t.Errorf("Carry without skips = %q", got)
	}
}
