package dbsync

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/metrics"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

const (
	testNS  = "openstack"
	jobName = "placement-db-sync"
)

var created = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func newClient(t *testing.T, extra interceptor.Funcs, objs ...client.Object) (client.Client, *testenv.Writes) {
	t.Helper()
	w := &testenv.Writes{}
	c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).
		WithStatusSubresource(&batchv1.Job{}, &corev1.Pod{}).
		WithObjects(objs...).WithInterceptorFuncs(testenv.CountWrites(w, extra)).Build()
	return c, w
}

func owner() apply.Owner {
	cr := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: testNS, UID: "owner-uid"}}
	return apply.Owner{Object: cr, Kind: "Placement", Scheme: managerconfig.NewScheme()}
}

func desiredJob(hash string) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: jobName, Namespace: testNS, Annotations: map[string]string{PodSpecHashAnnotation: hash}},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "db-sync", Image: "placement:2025.1"}},
		}}},
	}
}

func cond(t batchv1.JobConditionType, s corev1.ConditionStatus, after time.Duration, msg string) batchv1.JobCondition {
	return batchv1.JobCondition{Type: t, Status: s, LastTransitionTime: metav1.NewTime(created.Add(after)), Message: msg}
}

// liveJob is a Job owned by owner() with the given template hash and conditions.
func liveJob(hash string, conds ...batchv1.JobCondition) *batchv1.Job {
	j := desiredJob(hash)
	j.UID = "job-uid-" + types.UID(hash)
	j.CreationTimestamp = metav1.NewTime(created)
	isController := true
	j.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "placement", UID: "owner-uid", Controller: &isController}}
	j.Status.Conditions = conds
	return j
}

func TestEnsure_FakeClient(t *testing.T) {
	complete := cond(batchv1.JobComplete, corev1.ConditionTrue, 30*time.Second, "")
	failed := cond(batchv1.JobFailed, corev1.ConditionTrue, 30*time.Second, "Job has reached the specified backoff limit")
	deleting := liveJob("h1", complete)
	deleting.DeletionTimestamp = &metav1.Time{Time: created.Add(time.Minute)}
	deleting.Finalizers = []string{"batch.kubernetes.io/job-tracking"}
	foreignJob := desiredJob("h1")
	tests := []struct {
		name        string
		live        *batchv1.Job
		createErr   error
		want        State
		wantMsgIn   string
		wantErrIn   string
		wantCreates int
		wantDeletes int
		wantJob     bool
		// wantReplaced is the UID of the terminal Job the pass deleted, for counting.
		wantReplaced string
		wantGone     bool
	}{
		{name: "missing is created", want: Running, wantMsgIn: "created", wantCreates: 1},
		{
			name:      "create racing a Job the cache cannot see reads it uncached",
			createErr: apierrors.NewAlreadyExists(batchv1.Resource("jobs"), jobName), wantErrIn: "reading Job placement-db-sync", wantCreates: 1,
		},
		{name: "running Job, same template", live: liveJob("h1"), want: Running, wantMsgIn: "is running", wantJob: true},
		{name: "running Job is never replaced for a new template", live: liveJob("old"), want: Running, wantMsgIn: "is running", wantJob: true},
		{
			name: "non-True terminal conditions are still running",
			live: liveJob("h1", cond(batchv1.JobComplete, corev1.ConditionFalse, 0, ""), cond(batchv1.JobFailed, corev1.ConditionUnknown, 0, "")),
			want: Running, wantJob: true,
		},
		{name: "complete, same template", live: liveJob("h1", complete), want: Succeeded, wantJob: true},
		{
			name: "failed, same template", live: liveJob("h1", failed), want: Failed,
			wantMsgIn: "Job has reached the specified backoff limit", wantJob: true,
		},
		{name: "complete, new template is deleted", live: liveJob("old", complete), want: Running, wantMsgIn: "replaced", wantDeletes: 1, wantGone: true, wantReplaced: "job-uid-old"},
		{name: "failed, new template is deleted", live: liveJob("old", failed), want: Running, wantMsgIn: "replaced", wantDeletes: 1, wantGone: true, wantReplaced: "job-uid-old"},
		{name: "terminal but already deleting waits", live: deleting, want: Running, wantJob: true},
		{name: "foreign Job is refused", live: foreignJob, wantErrIn: "job placement-db-sync exists and is not owned by Placement placement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var objs []client.Object
			if tt.live != nil {
				objs = append(objs, tt.live.DeepCopy())
			}
			extra := interceptor.Funcs{}
			if tt.createErr != nil {
				extra.Create = func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
					return tt.createErr
				}
			}
			c, w := newClient(t, extra, objs...)
			st, err := Ensure(context.Background(), c, c, owner(), desiredJob("h1"))
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				if w.Total() != tt.wantCreates {
					t.Errorf("%d writes, want %d (the refused create only)", w.Total(), tt.wantCreates)
				}
				return
			}
			if err != nil {
				t.Fatalf("Ensure: %v", err)
			}
			if st.State != tt.want || !strings.Contains(st.Message, tt.wantMsgIn) {
				t.Errorf("status = %+v, want state %d with message containing %q", st, tt.want, tt.wantMsgIn)
			}
			if got := ""; st.Replaced != nil || tt.wantReplaced != "" {
				if st.Replaced != nil {
					got = string(st.Replaced.UID)
				}
				if got != tt.wantReplaced {
					t.Errorf("Replaced = %q, want %q", got, tt.wantReplaced)
				}
			}
			if (st.Job != nil) != tt.wantJob {
				t.Errorf("Job returned = %v, want %v", st.Job != nil, tt.wantJob)
			}
			if w.Create != tt.wantCreates || w.Delete != tt.wantDeletes || w.Update+w.Patch != 0 {
				t.Errorf("writes = %+v, want %d creates and %d deletes only", *w, tt.wantCreates, tt.wantDeletes)
			}
			var got batchv1.Job
			err = c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: jobName}, &got)
			if gone := apierrors.IsNotFound(err); gone != tt.wantGone {
				t.Fatalf("Job gone = %v (err %v), want %v", gone, err, tt.wantGone)
			}
			if tt.wantCreates == 1 && !tt.wantGone {
				if ref := metav1.GetControllerOf(&got); ref == nil || ref.UID != "owner-uid" {
					t.Errorf("created Job controller reference = %+v, want the owner", ref)
				}
				if got.Annotations[PodSpecHashAnnotation] != "h1" {
					t.Errorf("created Job hash = %q, want h1", got.Annotations[PodSpecHashAnnotation])
				}
			}
		})
	}
}

func TestEnsureReadError_FakeClient(t *testing.T) {
	c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return errors.New("boom")
		},
	}).Build()
	if _, err := Ensure(context.Background(), c, c, owner(), desiredJob("h1")); err == nil || !strings.Contains(err.Error(), "reading Job") {
		t.Fatalf("error = %v, want a read error", err)
	}
}

func TestTerminal(t *testing.T) {
	tests := []struct {
		name                     string
		conds                    []batchv1.JobCondition
		wantTerminal, wantFailed bool
		wantMessage              string
	}{
		{name: "no conditions"},
		{name: "complete", conds: []batchv1.JobCondition{cond(batchv1.JobComplete, corev1.ConditionTrue, 0, "")}, wantTerminal: true},
		{
			name:         "failed carries its message",
			conds:        []batchv1.JobCondition{cond(batchv1.JobFailed, corev1.ConditionTrue, 0, "BackoffLimitExceeded")},
			wantTerminal: true, wantFailed: true, wantMessage: "BackoffLimitExceeded",
		},
		{name: "complete False", conds: []batchv1.JobCondition{cond(batchv1.JobComplete, corev1.ConditionFalse, 0, "")}},
		{name: "failed Unknown", conds: []batchv1.JobCondition{cond(batchv1.JobFailed, corev1.ConditionUnknown, 0, "x")}},
		{
			name:  "interim conditions are not terminal",
			conds: []batchv1.JobCondition{cond(batchv1.JobSuccessCriteriaMet, corev1.ConditionTrue, 0, ""), cond(batchv1.JobFailureTarget, corev1.ConditionTrue, 0, "")},
		},
		{
			name:         "suspended then complete",
			conds:        []batchv1.JobCondition{cond(batchv1.JobSuspended, corev1.ConditionTrue, 0, ""), cond(batchv1.JobComplete, corev1.ConditionTrue, 0, "")},
			wantTerminal: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term, failed, msg := Terminal(liveJob("h", tt.conds...))
			if term != tt.wantTerminal || failed != tt.wantFailed || msg != tt.wantMessage {
				t.Errorf("Terminal = (%v, %v, %q), want (%v, %v, %q)", term, failed, msg, tt.wantTerminal, tt.wantFailed, tt.wantMessage)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		name  string
		conds []batchv1.JobCondition
		want  float64
	}{
		{name: "not terminal", conds: []batchv1.JobCondition{cond(batchv1.JobSuspended, corev1.ConditionTrue, 10*time.Second, "")}, want: 0},
		{name: "complete after 42s", conds: []batchv1.JobCondition{cond(batchv1.JobComplete, corev1.ConditionTrue, 42*time.Second, "")}, want: 42},
		{name: "failed after 90s", conds: []batchv1.JobCondition{cond(batchv1.JobFailed, corev1.ConditionTrue, 90*time.Second, "x")}, want: 90},
		{
			name:  "False terminal condition is skipped",
			conds: []batchv1.JobCondition{cond(batchv1.JobComplete, corev1.ConditionFalse, 5*time.Second, ""), cond(batchv1.JobFailed, corev1.ConditionTrue, 7*time.Second, "")},
			want:  7,
		},
		{name: "clock skew clamps to zero", conds: []batchv1.JobCondition{cond(batchv1.JobComplete, corev1.ConditionTrue, -3*time.Second, "")}, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Duration(liveJob("h", tt.conds...)); got != tt.want {
				t.Errorf("Duration = %v, want %v", got, tt.want)
			}
		})
	}
}

// crPod stands in for a service CR: an object with metadata and a status the
// API server stores apart.
func crPod(status corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: testNS, Annotations: map[string]string{"keep": "me"}},
		Status:     corev1.PodStatus{Phase: status},
	}
}

func readCR(t *testing.T, c client.Client) *corev1.Pod {
	t.Helper()
	var p corev1.Pod
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: "placement"}, &p); err != nil {
		t.Fatalf("reading CR: %v", err)
	}
	return &p
}

func TestRecord_FakeClient(t *testing.T) {
	job := liveJob("h1", cond(batchv1.JobComplete, corev1.ConditionTrue, 42*time.Second, ""))
	tests := []struct {
		name string
		// stale makes the in-memory CR's resourceVersion lag the stored one.
		stale       bool
		patchErr    error
		result      string
		wantErrIn   string
		wantCounted bool
	}{
		{name: "succeeded Job is counted once", result: ResultSucceeded, wantCounted: true},
		{name: "failed Job is counted under failed", result: ResultFailed, wantCounted: true},
		{name: "patch failure counts nothing", result: ResultSucceeded, patchErr: errors.New("boom"), wantErrIn: "recording db-sync Job placement-db-sync on placement"},
		{name: "a stale CR hits the optimistic lock and counts nothing", result: ResultSucceeded, stale: true, wantErrIn: "recording db-sync Job"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			extra := interceptor.Funcs{}
			if tt.patchErr != nil {
				extra.Patch = func(context.Context, client.WithWatch, client.Object, client.Patch, ...client.PatchOption) error {
					return tt.patchErr
				}
			}
			c, w := newClient(t, extra, crPod(corev1.PodPending))
			cr := readCR(t, c)
			if tt.stale {
				bump := cr.DeepCopy()
				bump.Labels = map[string]string{"bumped": "yes"}
				if err := c.Update(ctx, bump); err != nil {
					t.Fatalf("bumping the stored CR: %v", err)
				}
			}
			// The pass has set a status the API server does not hold yet.
			cr.Status.Phase = corev1.PodRunning
			cr.Status.Message = "set by this pass"
			m := metrics.New("test_operator", "test")
			before := *w

			err := Record(ctx, c, cr, job, m, tt.result)

			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				if n := testutil.CollectAndCount(m.DBSyncTotal) + testutil.CollectAndCount(m.DBSyncDuration); n != 0 {
					t.Errorf("%d metric series after a failed patch, want 0", n)
				}
				if _, ok := cr.Annotations[LastJobUIDAnnotation]; ok {
					t.Error("in-memory CR carries the UID although the patch failed")
				}
				return
			}
			if err != nil {
				t.Fatalf("Record: %v", err)
			}
			if w.Patch-before.Patch != 1 {
				t.Errorf("patches = %d, want 1", w.Patch-before.Patch)
			}
			if cr.Status.Phase != corev1.PodRunning || cr.Status.Message != "set by this pass" {
				t.Errorf("in-memory status = %+v, overwritten by the patch response", cr.Status)
			}
			if cr.Annotations[LastJobUIDAnnotation] != string(job.UID) || cr.Annotations["keep"] != "me" {
				t.Errorf("in-memory annotations = %v", cr.Annotations)
			}
			stored := readCR(t, c)
			if stored.Annotations[LastJobUIDAnnotation] != string(job.UID) || stored.Annotations["keep"] != "me" {
				t.Errorf("stored annotations = %v", stored.Annotations)
			}
			if cr.ResourceVersion != stored.ResourceVersion {
				t.Errorf("in-memory resourceVersion %q, stored %q", cr.ResourceVersion, stored.ResourceVersion)
			}
			if stored.Status.Phase != corev1.PodPending {
				t.Errorf("stored status phase = %q, the metadata patch must not write status", stored.Status.Phase)
			}
			if got := testutil.ToFloat64(m.DBSyncTotal.WithLabelValues("placement", testNS, tt.result)); got != 1 {
				t.Errorf("db_sync_total{%s} = %v, want 1", tt.result, got)
			}
			if n := testutil.CollectAndCount(m.DBSyncDuration); n != 1 {
				t.Errorf("db_sync_duration series = %d, want 1", n)
			}

			// The same Job again: no write, no second count.
			mid := *w
			if err := Record(ctx, c, cr, job, m, tt.result); err != nil {
				t.Fatalf("second Record: %v", err)
			}
			if w.Total() != mid.Total() {
				t.Errorf("second Record wrote %d times, want 0", w.Total()-mid.Total())
			}
			if got := testutil.ToFloat64(m.DBSyncTotal.WithLabelValues("placement", testNS, tt.result)); got != 1 {
				t.Errorf("db_sync_total{%s} after repeat = %v, want 1", tt.result, got)
			}

			// A new Job UID is counted again.
			next := job.DeepCopy()
			next.UID = "job-uid-next"
			if err := Record(ctx, c, cr, next, m, tt.result); err != nil {
				t.Fatalf("Record of a new Job: %v", err)
			}
			if got := testutil.ToFloat64(m.DBSyncTotal.WithLabelValues("placement", testNS, tt.result)); got != 2 {
				t.Errorf("db_sync_total{%s} after a new Job = %v, want 2", tt.result, got)
			}
		})
	}
}

// Each Job name suffix keeps its own last counted UID: counting the expand
// Job after db-sync never lets the db-sync Job be counted again when a later
// pass meets it (a replaced Job is recorded before it goes).
func TestRecordKeepsOneUIDPerSuffix_FakeClient(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, interceptor.Funcs{}, crPod(corev1.PodPending))
	cr := readCR(t, c)
	m := metrics.New("test_operator", "test")
	sync := liveJob("s", cond(batchv1.JobComplete, corev1.ConditionTrue, time.Second, ""))
	expand := liveJob("e", cond(batchv1.JobComplete, corev1.ConditionTrue, time.Second, ""))
	expand.Name = "placement-db-expand"
	for _, j := range []*batchv1.Job{sync, expand, sync, expand} {
		if err := Record(ctx, c, cr, j, m, ResultSucceeded); err != nil {
			t.Fatal(err)
		}
	}
	if got := testutil.ToFloat64(m.DBSyncTotal.WithLabelValues("placement", testNS, ResultSucceeded)); got != 2 {
		t.Errorf("db_sync_total = %v, want 2 (each Job once)", got)
	}
	for suffix, uid := range map[string]string{"db-sync": "job-uid-s", "db-expand": "job-uid-e"} {
		if cr.Annotations[UIDAnnotation(suffix)] != uid {
			t.Errorf("annotation of %s = %q, want %q", suffix, cr.Annotations[UIDAnnotation(suffix)], uid)
		}
	}
}
