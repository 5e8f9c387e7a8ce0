package pass

import (
	"context"
	"errors"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
	"slices"
	"strings"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

var testGV = schema.GroupVersion{Group: "test.openstack.c5c3.io", Version: "v1alpha1"}

type writes struct{ update, status int }

func newClient(t *testing.T, updateErr, statusErr error, objs ...client.Object) (client.Client, *writes) {
	t.Helper()
	w := &writes{}
	c := fake.NewClientBuilder().WithScheme(testenv.CRScheme(testGV)).WithStatusSubresource(&testenv.CR{}).WithObjects(objs...).
		WithInterceptorFuncs(interceptor.Funcs{
			Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
				w.update++
				if updateErr != nil {
					return updateErr
				}
				return c.Update(ctx, obj, opts...)
			},
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
				w.status++
				if statusErr != nil {
					return statusErr
				}
				return c.SubResource(sub).Update(ctx, obj, opts...)
			},
		}).Build()
	return c, w
}

func newCR() *testenv.CR {
	return &testenv.CR{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: "openstack", Generation: 3, UID: "cr-uid"}}
}

// stored reads the CR back from the fake API server.
func stored(t *testing.T, c client.Client) *testenv.CR {
	t.Helper()
	var cr testenv.CR
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: "openstack", Name: "placement"}, &cr); err != nil {
		t.Fatalf("reading CR: %v", err)
	}
	return &cr
}

var subs = []string{conditions.TypeSecretsReady, conditions.TypeDatabaseReady}

func TestPersistStatus_FakeClient(t *testing.T) {
	allTrue := func(cr *testenv.CR) {
		conditions.True(&cr.Status.Conditions, 3, conditions.TypeSecretsReady, conditions.ReasonSecretsAvailable, "ok")
		conditions.True(&cr.Status.Conditions, 3, conditions.TypeDatabaseReady, conditions.ReasonDatabaseSynced, "ok")
	}
	settled := newCR()
	allTrue(settled)
	conditions.Aggregate(&settled.Status.Conditions, 3, subs)
	settled.Status.ObservedGeneration = 3
	tests := []struct {
		name       string
		seed       *testenv.CR
		mutate     func(*testenv.CR)
		statusErr  error
		wantWrites int
		wantReady  metav1.ConditionStatus
		wantReason string
		wantMsgIn  string
		wantErrIn  string
	}{
		{name: "unchanged status is not written", seed: settled, wantReady: metav1.ConditionTrue, wantReason: conditions.ReasonAllReady},
		{
			name: "fresh CR: Ready derived and observedGeneration stamped", seed: newCR(), mutate: allTrue, wantWrites: 1,
			wantReady: metav1.ConditionTrue, wantReason: conditions.ReasonAllReady,
		},
		{
			name: "a False sub-condition makes Ready False naming it", seed: settled, wantWrites: 1,
			mutate: func(cr *testenv.CR) {
				conditions.False(&cr.Status.Conditions, 3, conditions.TypeDatabaseReady, conditions.ReasonWaitingForDatabase, "wait")
			},
			wantReady: metav1.ConditionFalse, wantReason: conditions.ReasonNotAllReady, wantMsgIn: "not True: DatabaseReady",
		},
		{
			name: "a new generation is written", wantWrites: 1, wantReady: metav1.ConditionTrue, wantReason: conditions.ReasonAllReady,
			seed: func() *testenv.CR { cr := settled.DeepCopyObject().(*testenv.CR); cr.Generation = 4; return cr }(),
		},
		{
			name: "write failure is returned", seed: newCR(), mutate: allTrue, statusErr: errors.New("boom"), wantWrites: 1,
			wantErrIn: "updating status: boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w := newClient(t, nil, tt.statusErr, tt.seed.DeepCopyObject().(client.Object))
			cr := stored(t, c)
			before := cr.StatusSnapshot()
			if tt.mutate != nil {
				tt.mutate(cr)
			}
			err := PersistStatus(context.Background(), c, cr, before, subs)
			if w.status != tt.wantWrites {
				t.Errorf("status writes = %d, want %d", w.status, tt.wantWrites)
			}
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				return
			}
			if err != nil {
				t.Fatalf("PersistStatus: %v", err)
			}
			got := stored(t, c)
			if got.Status.ObservedGeneration != got.Generation {
				t.Errorf("stored observedGeneration = %d, generation %d", got.Status.ObservedGeneration, got.Generation)
			}
			ready := apimeta.FindStatusCondition(got.Status.Conditions, conditions.TypeReady)
			if ready == nil || ready.Status != tt.wantReady || ready.Reason != tt.wantReason || !strings.Contains(ready.Message, tt.wantMsgIn) {
				t.Fatalf("stored Ready = %+v, want %s/%s containing %q", ready, tt.wantReady, tt.wantReason, tt.wantMsgIn)
			}
			if ready.ObservedGeneration != got.Generation {
				t.Errorf("Ready observedGeneration = %d, want %d", ready.ObservedGeneration, got.Generation)
			}
		})
	}
}

// A status computed from a copy that someone else changed since (an
// annotation written by another client) is written over the newer version,
// not lost to the conflict; the other write stays.
func TestPersistStatusOverAConcurrentMetadataChange_FakeClient(t *testing.T) {
	c, _ := newClient(t, nil, nil, newCR())
	cr := stored(t, c)
	before := cr.StatusSnapshot()
	other := stored(t, c)
	other.Annotations = map[string]string{"example.org/probe": "elsewhere"}
	if err := c.Update(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	conditions.True(&cr.Status.Conditions, 3, conditions.TypeSecretsReady, conditions.ReasonSecretsAvailable, "ok")
	if err := PersistStatus(context.Background(), c, cr, before, subs); err != nil {
		t.Fatalf("PersistStatus after a concurrent annotation: %v", err)
	}
	got := stored(t, c)
	if !apimeta.IsStatusConditionTrue(got.Status.Conditions, conditions.TypeSecretsReady) {
		t.Errorf("the pass's status was lost: %+v", got.Status.Conditions)
	}
	if got.Annotations["example.org/probe"] != "elsewhere" {
		t.Errorf("the other client's annotation was overwritten: %v", got.Annotations)
	}
}

// calls records which hooks a pass invoked.
type calls struct{ resolve, finalizers, run, del int }

func hooks(k *calls, resolveErr, runErr error) Hooks[*testenv.CR] {
	return Hooks[*testenv.CR]{
		Finalizers: func(*testenv.CR) []string {
			k.finalizers++
			return []string{"test.openstack.c5c3.io/finalizer", targetcluster.RemoteChildrenFinalizer}
		},
		Resolve: func(context.Context, *testenv.CR) (targetcluster.Target, error) {
			k.resolve++
			return targetcluster.Target{Name: "edge-1"}, resolveErr
		},
		Delete: func(context.Context, *testenv.CR) (ctrl.Result, error) {
			k.del++
			return ctrl.Result{RequeueAfter: 7 * time.Second}, nil
		},
		Run: func(_ context.Context, cr *testenv.CR, target targetcluster.Target) (pipeline.Outcome, error) {
			k.run++
			if target.Name != "edge-1" {
				return pipeline.Outcome{}, errors.New("run got the wrong target")
			}
			conditions.True(&cr.Status.Conditions, cr.Generation, conditions.TypeSecretsReady, conditions.ReasonSecretsAvailable, "ok")
			if runErr != nil {
				conditions.False(&cr.Status.Conditions, cr.Generation, conditions.TypeDatabaseReady, conditions.ReasonClusterNotReady, "down")
				return pipeline.Outcome{}, runErr
			}
			conditions.True(&cr.Status.Conditions, cr.Generation, conditions.TypeDatabaseReady, conditions.ReasonDatabaseSynced, "ok")
			return pipeline.RequeueAfter(10 * time.Second), nil
		},
		SubConditions: subs,
	}
}

func TestPass_FakeClient(t *testing.T) {
	resolveErr := errors.New(`cluster "edge-1" is not registered`)
	runErr := errors.New("step database failed")
	deleting := newCR()
	deleting.DeletionTimestamp = &metav1.Time{Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	deleting.Finalizers = []string{"test.openstack.c5c3.io/finalizer"}
	tests := []struct {
		name                 string
		seed                 *testenv.CR
		resolveErr, runErr   error
		updateErr, statusErr error
		want                 ctrl.Result
		wantErrIn            string
		wantErrIs            error
		wantCalls            calls
		wantUpdates          int
		wantStatus           int
		wantFinalizers       []string
		wantSecrets          metav1.ConditionStatus
		wantSecretsReason    string
		wantReady            metav1.ConditionStatus
	}{
		{
			name: "deletion runs only the Delete hook", seed: deleting,
			want: ctrl.Result{RequeueAfter: 7 * time.Second}, wantCalls: calls{del: 1},
			wantFinalizers: []string{"test.openstack.c5c3.io/finalizer"},
		},
		{
			name: "unresolvable target: condition, status write, flat requeue, no finalizer", seed: newCR(), resolveErr: resolveErr,
			want: ctrl.Result{RequeueAfter: 15 * time.Second}, wantCalls: calls{resolve: 1}, wantStatus: 1,
			wantSecrets: metav1.ConditionFalse, wantSecretsReason: conditions.ReasonTargetClusterUnavailable, wantReady: metav1.ConditionFalse,
		},
		{
			name: "finalizers added in one update, then the pipeline runs", seed: newCR(),
			want: ctrl.Result{RequeueAfter: 10 * time.Second}, wantCalls: calls{resolve: 1, finalizers: 1, run: 1}, wantUpdates: 1, wantStatus: 1,
			wantFinalizers: []string{"test.openstack.c5c3.io/finalizer", targetcluster.RemoteChildrenFinalizer},
			wantSecrets:    metav1.ConditionTrue, wantSecretsReason: conditions.ReasonSecretsAvailable, wantReady: metav1.ConditionTrue,
		},
		{
			name: "run error still persists status and is returned", seed: newCR(), runErr: runErr,
			wantErrIs: runErr, wantCalls: calls{resolve: 1, finalizers: 1, run: 1}, wantUpdates: 1, wantStatus: 1,
			wantFinalizers: []string{"test.openstack.c5c3.io/finalizer", targetcluster.RemoteChildrenFinalizer},
			wantSecrets:    metav1.ConditionTrue, wantSecretsReason: conditions.ReasonSecretsAvailable, wantReady: metav1.ConditionFalse,
		},
		{
			name: "status write failure is joined with the run error", seed: newCR(), runErr: runErr, statusErr: errors.New("conflict"),
			wantErrIs: runErr, wantCalls: calls{resolve: 1, finalizers: 1, run: 1}, wantUpdates: 1, wantStatus: 1,
			wantFinalizers: []string{"test.openstack.c5c3.io/finalizer", targetcluster.RemoteChildrenFinalizer},
		},
		{
			name: "finalizer update failure stops the pass before the pipeline", seed: newCR(), updateErr: errors.New("forbidden"),
			wantErrIn: "adding finalizers: forbidden", wantCalls: calls{resolve: 1, finalizers: 1}, wantUpdates: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w := newClient(t, tt.updateErr, tt.statusErr, tt.seed.DeepCopyObject().(client.Object))
			cr := stored(t, c)
			k := &calls{}
			got, err := Run(context.Background(), c, cr, hooks(k, tt.resolveErr, tt.runErr))
			switch {
			case tt.wantErrIs != nil:
				if !errors.Is(err, tt.wantErrIs) {
					t.Errorf("error %v does not wrap %v", err, tt.wantErrIs)
				}
				if tt.statusErr != nil && (err == nil || !strings.Contains(err.Error(), tt.statusErr.Error())) {
					t.Errorf("error %v does not carry the status write failure", err)
				}
			case tt.wantErrIn != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Errorf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
			case err != nil:
				t.Fatalf("Pass: %v", err)
			}
			if got != tt.want {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
			if *k != tt.wantCalls {
				t.Errorf("hook calls = %+v, want %+v", *k, tt.wantCalls)
			}
			if w.update != tt.wantUpdates || w.status != tt.wantStatus {
				t.Errorf("updates = %d, status writes = %d, want %d and %d", w.update, w.status, tt.wantUpdates, tt.wantStatus)
			}
			s := stored(t, c)
			if !slices.Equal(s.Finalizers, tt.wantFinalizers) {
				t.Errorf("stored finalizers = %v, want %v", s.Finalizers, tt.wantFinalizers)
			}
			if tt.wantSecrets != "" {
				sc := apimeta.FindStatusCondition(s.Status.Conditions, conditions.TypeSecretsReady)
				if sc == nil || sc.Status != tt.wantSecrets || sc.Reason != tt.wantSecretsReason {
					t.Errorf("stored SecretsReady = %+v, want %s/%s", sc, tt.wantSecrets, tt.wantSecretsReason)
				}
				if tt.resolveErr != nil && sc != nil && sc.Message != tt.resolveErr.Error() {
					t.Errorf("SecretsReady message = %q, want the resolver error", sc.Message)
				}
				ready := apimeta.FindStatusCondition(s.Status.Conditions, conditions.TypeReady)
				if ready == nil || ready.Status != tt.wantReady {
					t.Errorf("stored Ready = %+v, want %s", ready, tt.wantReady)
				}
				if s.Status.ObservedGeneration != 3 {
					t.Errorf("stored observedGeneration = %d, want 3", s.Status.ObservedGeneration)
				}
			}
		})
	}
}

func TestPassSteadyState_FakeClient(t *testing.T) {
	c, w := newClient(t, nil, nil, newCR())
	k := &calls{}
	if _, err := Run(context.Background(), c, stored(t, c), hooks(k, nil, nil)); err != nil {
		t.Fatalf("first pass: %v", err)
	}
	first := *w
	got, err := Run(context.Background(), c, stored(t, c), hooks(k, nil, nil))
	if err != nil {
		t.Fatalf("second pass: %v", err)
	}
	if w.update != first.update || w.status != first.status {
		t.Errorf("second pass over unchanged inputs wrote: %d updates, %d status writes", w.update-first.update, w.status-first.status)
	}
	if k.run != 2 || got.RequeueAfter != 10*time.Second {
		t.Errorf("run calls = %d, result %+v; want the pipeline run again with its requeue", k.run, got)
	}
}
