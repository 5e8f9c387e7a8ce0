package watch

import (
	"context"
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

var gv = schema.GroupVersion{Group: "test.openstack.c5c3.io", Version: "v1alpha1"}

func TestCREvents(t *testing.T) {
	base := func() *testenv.CR {
		return &testenv.CR{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Generation: 3, ResourceVersion: "10",
			Labels: map[string]string{"a": "b"}}}
	}
	with := func(f func(*testenv.CR)) *testenv.CR {
		p := base()
		p.ResourceVersion = "11"
		f(p)
		return p
	}
	same := base()
	withRecord := func(uid string) *testenv.CR {
		p := base()
		p.Annotations = map[string]string{dbsync.UIDAnnotation("db-sync"): uid, "x": "y"}
		return p
	}
	tests := []struct {
		name     string
		old, new *testenv.CR
		want     bool
	}{
		{"periodic resync (one cached object as old and new)", same, same, true},
		{"relist over an unchanged CR", base(), base(), true},
		{"status-only update", base(), with(func(p *testenv.CR) { p.Status.ObservedGeneration = 3 }), false},
		{"spec change", base(), with(func(p *testenv.CR) { p.Generation = 4 }), true},
		{"label change", base(), with(func(p *testenv.CR) { p.Labels["a"] = "c" }), true},
		{"annotation change", base(), with(func(p *testenv.CR) { p.Annotations = map[string]string{"x": "y"} }), true},
		{"the operator's record of the last Job counted", base(),
			with(func(p *testenv.CR) { p.Annotations = map[string]string{dbsync.UIDAnnotation("db-sync"): "uid-1"} }), false},
		{"a record replaced", withRecord("uid-1"),
			with(func(p *testenv.CR) {
				p.Annotations = map[string]string{dbsync.UIDAnnotation("db-sync"): "uid-2", "x": "y"}
			}), false},
		{"a record added with another annotation", base(),
			with(func(p *testenv.CR) {
				p.Annotations = map[string]string{dbsync.UIDAnnotation("db-purge"): "uid-1", "w": "v"}
			}), true},
		{"a record removed, an annotation changed", withRecord("uid-1"),
			with(func(p *testenv.CR) { p.Annotations = map[string]string{"x": "z"} }), true},
		{"an annotation removed beside a record", withRecord("uid-1"),
			with(func(p *testenv.CR) { p.Annotations = map[string]string{dbsync.UIDAnnotation("db-sync"): "uid-1"} }), true},
		{"entry into Terminating", base(), with(func(p *testenv.CR) { now := metav1.Now(); p.DeletionTimestamp = &now }), true},
		{"finalizer-only update", base(), with(func(p *testenv.CR) { p.Finalizers = []string{"f"} }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CREvents().Update(event.UpdateEvent{ObjectOld: tt.old, ObjectNew: tt.new}); got != tt.want {
				t.Errorf("Update = %v, want %v", got, tt.want)
			}
		})
	}
	if !CREvents().Create(event.CreateEvent{Object: base()}) || !CREvents().Delete(event.DeleteEvent{Object: base()}) {
		t.Error("creates and deletes of CRs must pass")
	}
}

func testCR(name, cluster string) *testenv.CR {
	p := &testenv.CR{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "openstack"}}
	p.Spec.Database.SecretRef.Name = name + "-db"
	p.Spec.ServiceUser.SecretRef.Name = name + "-service-user"
	if cluster != "" {
		p.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: cluster}
	}
	return p
}

func testMapper(t *testing.T, objs ...client.Object) Mapper {
	t.Helper()
	c := fake.NewClientBuilder().WithScheme(testenv.CRScheme(gv)).
		WithIndex(&testenv.CR{}, IndexSecretRefs, SecretRefs).
		WithObjects(objs...).Build()
	return Mapper{Client: c, Object: &testenv.CR{}, List: &testenv.CRList{}, Kind: "Placement", ManagedBy: "placement-operator"}
}

func secret(name string, labels map[string]string) *metav1.PartialObjectMetadata {
	m := SecretMetadata()
	m.Name, m.Namespace, m.Labels = name, "openstack", labels
	return m
}

// On a target cluster one Secret informer carries both the referenced
// credentials and the owned <cr>-db-connection: each maps to its CR, and
// only to CRs that name that cluster.
func TestByRemoteSecret_FakeClient(t *testing.T) {
	m := testMapper(t, testCR("placement", "edge-1"), testCR("elsewhere", "edge-2"))
	owned := targetcluster.OwnerLabels("Placement", "placement", "openstack")
	want := []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "openstack", Name: "placement"}}}
	tests := []struct {
		name   string
		secret *metav1.PartialObjectMetadata
		want   []reconcile.Request
	}{
		{"owned db-connection Secret", secret("placement-db-connection", owned), want},
		{"referenced credential Secret", secret("placement-db", nil), want},
		{"referenced and labelled: one request", secret("placement-db", owned), want},
		{"owned by a CR on another cluster", secret("elsewhere-db-connection", targetcluster.OwnerLabels("Placement", "elsewhere", "openstack")), nil},
		{"owned by another kind", secret("placement-db-connection", targetcluster.OwnerLabels("Glance", "placement", "openstack")), nil},
		{"unrelated Secret", secret("unrelated", nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.ByRemoteSecret("edge-1")(context.Background(), tt.secret); !slices.Equal(got, tt.want) {
				t.Errorf("requests %v, want %v", got, tt.want)
			}
		})
	}
}

// AlsoBySecret adds the CRs reached through another object (Glance's
// backends) to those referencing the Secret, once each.
func TestBySecretAlso_FakeClient(t *testing.T) {
	m := testMapper(t, testCR("glance", ""), testCR("other", ""))
	req := func(name string) reconcile.Request {
		return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "openstack", Name: name}}
	}
	m.AlsoBySecret = func(_ context.Context, cluster string, o client.Object) []reconcile.Request {
		if cluster != "" || o.GetName() != "s3-creds" && o.GetName() != "glance-db" {
			return nil
		}
		return []reconcile.Request{req("glance")}
	}
	for name, want := range map[string][]reconcile.Request{
		"glance-db": {req("glance")},
		"s3-creds":  {req("glance")},
		"other-db":  {req("other")},
		"unrelated": nil,
	} {
		if got := m.BySecret("")(context.Background(), secret(name, nil)); !slices.Equal(got, want) {
			t.Errorf("%s: requests %v, want %v", name, got, want)
		}
	}
}

// A Job run by one of the CR's CronJobs reaches the CR through the job
// template's labels; Jobs of other operators, of CronJobs of CRs on a
// target cluster, or not run by a CronJob do not.
func TestByPeriodicRun_FakeClient(t *testing.T) {
	m := testMapper(t, testCR("glance", ""), testCR("remote", "edge-1"))
	labels := func(instance, managedBy string) map[string]string {
		return map[string]string{workload.InstanceLabel: instance, workload.ManagedByLabel: managedBy}
	}
	job := func(l map[string]string, ownerKind string) *batchv1.Job {
		j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "glance-db-purge-29000000", Namespace: "openstack", Labels: l}}
		if ownerKind != "" {
			yes := true
			j.OwnerReferences = []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: ownerKind, Name: "glance-db-purge", UID: "u", Controller: &yes}}
		}
		return j
	}
	want := []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: "openstack", Name: "glance"}}}
	tests := []struct {
		name string
		job  *batchv1.Job
		want []reconcile.Request
	}{
		{"run of the CR's CronJob", job(labels("glance", "placement-operator"), "CronJob"), want},
		{"Job controlled by the CR itself (Owns sees it)", job(labels("glance", "placement-operator"), "Placement"), nil},
		{"Job with no controller", job(labels("glance", "placement-operator"), ""), nil},
		{"another operator's run", job(labels("glance", "glance-operator"), "CronJob"), nil},
		{"run for a CR that does not exist", job(labels("gone", "placement-operator"), "CronJob"), nil},
		{"run for a CR whose children live on a target cluster", job(labels("remote", "placement-operator"), "CronJob"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.ByPeriodicRun("")(context.Background(), tt.job); !slices.Equal(got, tt.want) {
				t.Errorf("requests %v, want %v", got, tt.want)
			}
		})
	}
}
