package watch

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

func cm(rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "placement-config", Namespace: "openstack", ResourceVersion: rv}}
}

type verdicts struct{ create, del, generic, resync, changed bool }

func judge(p predicate.Predicate) verdicts {
	same := cm("10")
	return verdicts{
		create:  p.Create(event.CreateEvent{Object: cm("10")}),
		del:     p.Delete(event.DeleteEvent{Object: cm("10")}),
		generic: p.Generic(event.GenericEvent{Object: cm("10")}),
		// A resync hands the cached object over as both old and new.
		resync:  p.Update(event.UpdateEvent{ObjectOld: same, ObjectNew: same}) && p.Update(event.UpdateEvent{ObjectOld: cm("10"), ObjectNew: cm("10")}),
		changed: p.Update(event.UpdateEvent{ObjectOld: cm("10"), ObjectNew: cm("11")}),
	}
}

func TestDropResyncs(t *testing.T) {
	want := verdicts{create: true, del: true, generic: true, resync: false, changed: true}
	if got := judge(DropResyncs()); got != want {
		t.Errorf("DropResyncs: %+v, want %+v", got, want)
	}
	// Either kind of resync event is dropped on its own.
	same := cm("10")
	if DropResyncs().Update(event.UpdateEvent{ObjectOld: same, ObjectNew: same}) {
		t.Error("DropResyncs passes a resync of one object")
	}
	if DropResyncs().Update(event.UpdateEvent{ObjectOld: cm("10"), ObjectNew: cm("10")}) {
		t.Error("DropResyncs passes a relist over an unchanged object")
	}
}

func TestResyncs(t *testing.T) {
	want := verdicts{resync: true}
	if got := judge(Resyncs()); got != want {
		t.Errorf("Resyncs: %+v, want %+v", got, want)
	}
	if Resyncs().Update(event.UpdateEvent{ObjectOld: nil, ObjectNew: cm("10")}) {
		t.Error("Resyncs passes an update without its old object")
	}
}
