package apply

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

const (
	testNS    = "openstack"
	ownerKind = "Placement"
	ownerUID  = types.UID("owner-uid")
)

// newClient counts the mutating calls that reach the fake API server.
func newClient(t *testing.T, objs ...client.Object) (client.Client, *testenv.Writes) {
	t.Helper()
	w := &testenv.Writes{}
	c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).WithObjects(objs...).
		WithInterceptorFuncs(testenv.CountWrites(w, interceptor.Funcs{})).Build()
	return c, w
}

func newOwner(remote bool) Owner {
	cr := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: testNS, UID: ownerUID}}
	return Owner{Object: cr, Kind: ownerKind, Scheme: managerconfig.NewScheme(), Remote: remote}
}

func service(port int32) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "placement-api", Namespace: testNS, Labels: map[string]string{"app": "placement"}},
		Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "api", Port: port}}},
	}
}

func keepClusterIP(live, desired *corev1.Service) { desired.Spec.ClusterIP = live.Spec.ClusterIP }

func getService(t *testing.T, c client.Client) *corev1.Service {
	t.Helper()
	var s corev1.Service
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: "placement-api"}, &s); err != nil {
		t.Fatalf("reading the Service: %v", err)
	}
	return &s
}

// seedOwned creates the Service through Ensure, then lets "other actors" add
// a clusterIP, a label, an annotation and a finalizer that desired never carries.
func seedOwned(t *testing.T, c client.Client, o Owner) {
	t.Helper()
	if _, err := Ensure(context.Background(), c, o, service(8778), nil); err != nil {
		t.Fatalf("seeding: %v", err)
	}
	live := getService(t, c)
	live.Spec.ClusterIP = "10.96.0.7"
	live.Labels["live-only"] = "kept"
	live.Annotations["live-only"] = "kept"
	live.Finalizers = []string{"example.org/other-controller"}
	if err := c.Update(context.Background(), live); err != nil {
		t.Fatalf("seeding live-only fields: %v", err)
	}
}

func foreign(mutate func(*corev1.Service)) func(*testing.T, client.Client, Owner) {
	return func(t *testing.T, c client.Client, _ Owner) {
		t.Helper()
		s := service(8778)
		mutate(s)
		if err := c.Create(context.Background(), s); err != nil {
			t.Fatalf("seeding foreign Service: %v", err)
		}
	}
}

func TestEnsure_FakeClient(t *testing.T) {
	otherController := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "other", UID: "other-uid", Controller: boolPtr(true)}
	tests := []struct {
		name        string
		remote      bool
		seed        func(*testing.T, client.Client, Owner)
		desired     *corev1.Service
		keep        Preserve[*corev1.Service]
		wantWrote   bool
		wantErrIn   string
		wantCreates int
		wantUpdates int
		check       func(t *testing.T, live, desired *corev1.Service)
	}{
		{
			name: "creates when missing", desired: service(8778), wantWrote: true, wantCreates: 1,
			check: func(t *testing.T, live, _ *corev1.Service) {
				ref := metav1.GetControllerOf(live)
				if ref == nil || ref.UID != ownerUID || ref.Kind != "ConfigMap" || ref.Name != "placement" {
					t.Errorf("controller reference = %+v, want the owner", ref)
				}
				if live.Annotations[HashAnnotation] == "" {
					t.Error("hash annotation missing on the created object")
				}
			},
		},
		{
			name: "identical desired writes nothing and returns the live object", seed: seedOwned, desired: service(8778),
			check: func(t *testing.T, live, desired *corev1.Service) {
				if desired.Spec.ClusterIP != "10.96.0.7" || desired.Labels["live-only"] != "kept" {
					t.Errorf("desired not filled from live: clusterIP %q, labels %v", desired.Spec.ClusterIP, desired.Labels)
				}
				if desired.ResourceVersion != live.ResourceVersion {
					t.Errorf("desired resourceVersion %q, live %q", desired.ResourceVersion, live.ResourceVersion)
				}
			},
		},
		{
			name: "changed desired updates once, keeping live-only metadata and preserved fields", seed: seedOwned,
			desired: service(9999), keep: keepClusterIP, wantWrote: true, wantUpdates: 1,
			check: func(t *testing.T, live, _ *corev1.Service) {
				if live.Spec.Ports[0].Port != 9999 {
					t.Errorf("port = %d, want 9999", live.Spec.Ports[0].Port)
				}
				if live.Spec.ClusterIP != "10.96.0.7" {
					t.Errorf("clusterIP = %q, want it preserved", live.Spec.ClusterIP)
				}
				if live.Labels["live-only"] != "kept" || live.Annotations["live-only"] != "kept" || live.Labels["app"] != "placement" {
					t.Errorf("labels %v / annotations %v, want live-only entries merged", live.Labels, live.Annotations)
				}
				if !slices.Contains(live.Finalizers, "example.org/other-controller") {
					t.Errorf("finalizers = %v, another controller's finalizer was stripped", live.Finalizers)
				}
				want, _ := Digest(service(9999))
				if live.Annotations[HashAnnotation] != want {
					t.Errorf("hash annotation = %q, want the digest of the new desired object", live.Annotations[HashAnnotation])
				}
			},
		},
		{
			name: "changed desired without a Preserve hook drops the live-only spec field", seed: seedOwned,
			desired: service(9999), wantWrote: true, wantUpdates: 1,
			check: func(t *testing.T, live, _ *corev1.Service) {
				if live.Spec.ClusterIP != "" {
					t.Errorf("clusterIP = %q, want it replaced by desired's empty value", live.Spec.ClusterIP)
				}
			},
		},
		{
			name: "object without an owner reference is refused", seed: foreign(func(*corev1.Service) {}),
			desired: service(8778), wantErrIn: "refusing to adopt",
		},
		{
			name:    "object controlled by another owner is refused",
			seed:    foreign(func(s *corev1.Service) { s.OwnerReferences = []metav1.OwnerReference{otherController} }),
			desired: service(8778), wantErrIn: "refusing to adopt",
		},
		{
			name: "remote owner creates with ownership labels and no owner reference", remote: true,
			desired: service(8778), wantWrote: true, wantCreates: 1,
			check: func(t *testing.T, live, _ *corev1.Service) {
				if len(live.OwnerReferences) != 0 {
					t.Errorf("owner references = %v, want none on a remote child", live.OwnerReferences)
				}
				for k, v := range targetcluster.OwnerLabels(ownerKind, "placement", testNS) {
					if live.Labels[k] != v {
						t.Errorf("label %s = %q, want %q", k, live.Labels[k], v)
					}
				}
			},
		},
		{
			name: "remote owner refuses an object labelled for another owner", remote: true,
			seed: foreign(func(s *corev1.Service) {
				s.Labels = targetcluster.OwnerLabels(ownerKind, "other", testNS)
			}),
			desired: service(8778), wantErrIn: "refusing to adopt",
		},
		{
			name: "remote owner updates an object carrying its labels", remote: true, seed: seedOwned,
			desired: service(9999), wantWrote: true, wantUpdates: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			o := newOwner(tt.remote)
			c, w := newClient(t)
			if tt.seed != nil {
				tt.seed(t, c, o)
			}
			before := *w
			wrote, err := Ensure(ctx, c, o, tt.desired, tt.keep)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				if w.Total() != before.Total() {
					t.Errorf("%d writes on a refused object", w.Total()-before.Total())
				}
				return
			}
			if err != nil {
				t.Fatalf("Ensure: %v", err)
			}
			if wrote != tt.wantWrote {
				t.Errorf("wrote = %v, want %v", wrote, tt.wantWrote)
			}
			if n := w.Create - before.Create; n != tt.wantCreates {
				t.Errorf("creates = %d, want %d", n, tt.wantCreates)
			}
			if n := w.Update - before.Update; n != tt.wantUpdates {
				t.Errorf("updates = %d, want %d", n, tt.wantUpdates)
			}
			if n := w.Patch + w.Delete - before.Patch - before.Delete; n != 0 {
				t.Errorf("patches+deletes = %d, want 0", n)
			}
			live := getService(t, c)
			if tt.check != nil {
				tt.check(t, live, tt.desired)
			}
			// A repeat with the same desired object is always a no-op.
			again := service(live.Spec.Ports[0].Port)
			mid := *w
			wrote, err = Ensure(ctx, c, o, again, tt.keep)
			if err != nil || wrote || w.Total() != mid.Total() {
				t.Errorf("repeat: wrote=%v err=%v writes=%d, want a no-op", wrote, err, w.Total()-mid.Total())
			}
		})
	}
}

func TestEnsureErrors_FakeClient(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		funcs     interceptor.Funcs
		wantErrIn string
	}{
		{
			name: "read failure",
			funcs: interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return boom
			}},
			wantErrIn: "reading *v1.Service placement-api",
		},
		{
			name: "create failure",
			funcs: interceptor.Funcs{Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
				return apierrors.NewAlreadyExists(corev1.Resource("services"), "placement-api")
			}},
			wantErrIn: "creating *v1.Service placement-api: services \"placement-api\" already exists (if this persists, an object the operator did not create",
		},
		{
			name: "create failure, other",
			funcs: interceptor.Funcs{Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
				return boom
			}},
			wantErrIn: "creating *v1.Service placement-api: boom",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).WithInterceptorFuncs(tt.funcs).Build()
			wrote, err := Ensure(context.Background(), c, newOwner(false), service(8778), nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) || wrote {
				t.Fatalf("wrote=%v error=%v, want an error containing %q", wrote, err, tt.wantErrIn)
			}
		})
	}
}

func TestDigest(t *testing.T) {
	base, err := Digest(service(8778))
	if err != nil {
		t.Fatalf("Digest: %v", err)
	}
	reordered := service(8778)
	reordered.Labels = map[string]string{}
	for _, k := range []string{"z", "app", "a"} {
		reordered.Labels[k] = "v"
	}
	inOrder := service(8778)
	inOrder.Labels = map[string]string{"a": "v", "app": "v", "z": "v"}
	tests := []struct {
		name     string
		a, b     any
		wantSame bool
	}{
		{name: "equal objects built twice", a: service(8778), b: service(8778), wantSame: true},
		{name: "map insertion order does not matter", a: reordered, b: inOrder, wantSame: true},
		{name: "a changed field changes the digest", a: service(8778), b: service(8779)},
		{name: "a changed label changes the digest", a: service(8778), b: inOrder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, errA := Digest(tt.a)
			b, errB := Digest(tt.b)
			if errA != nil || errB != nil {
				t.Fatalf("Digest errors: %v, %v", errA, errB)
			}
			if len(a) != 64 {
				t.Errorf("digest %q is not a hex SHA-256", a)
			}
			if (a == b) != tt.wantSame {
				t.Errorf("digests %s and %s: same=%v, want %v", a, b, a == b, tt.wantSame)
			}
		})
	}
	if again, _ := Digest(service(8778)); again != base {
		t.Errorf("digest not stable: %s then %s", base, again)
	}
	if _, err := Digest(func() {}); err == nil {
		t.Error("Digest of an unencodable value returned no error")
	}
}

func TestOwns(t *testing.T) {
	ctrlRef := func(uid types.UID, controller bool) []metav1.OwnerReference {
		return []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "placement", UID: uid, Controller: boolPtr(controller)}}
	}
	tests := []struct {
		name   string
		child  metav1.ObjectMeta
		wantOK bool
	}{
		{name: "controller reference with the owner's UID", child: metav1.ObjectMeta{OwnerReferences: ctrlRef(ownerUID, true)}, wantOK: true},
		{name: "controller reference with another UID", child: metav1.ObjectMeta{OwnerReferences: ctrlRef("other", true)}},
		{name: "non-controller reference is not ownership", child: metav1.ObjectMeta{OwnerReferences: ctrlRef(ownerUID, false)}},
		{name: "all three ownership labels", child: metav1.ObjectMeta{Labels: targetcluster.OwnerLabels(ownerKind, "placement", testNS)}, wantOK: true},
		{name: "labels of another kind", child: metav1.ObjectMeta{Labels: targetcluster.OwnerLabels("Glance", "placement", testNS)}},
		{name: "labels of another namespace", child: metav1.ObjectMeta{Labels: targetcluster.OwnerLabels(ownerKind, "placement", "other")}},
		{name: "name label missing", child: metav1.ObjectMeta{Labels: map[string]string{
			targetcluster.LabelOwnerKind: ownerKind, targetcluster.LabelOwnerNamespace: testNS,
		}}},
		{name: "nothing", child: metav1.ObjectMeta{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, remote := range []bool{false, true} {
				if got := newOwner(remote).Owns(&tt.child); got != tt.wantOK {
					t.Errorf("remote=%v: Owns = %v, want %v", remote, got, tt.wantOK)
				}
			}
		})
	}
}

func TestAbsent_FakeClient(t *testing.T) {
	owned := service(8778)
	owned.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "placement", UID: ownerUID, Controller: boolPtr(true)}}
	labelled := service(8778)
	labelled.Labels = targetcluster.OwnerLabels(ownerKind, "placement", testNS)
	deleting := owned.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{Time: metav1.Now().Time}
	deleting.Finalizers = []string{"example.org/hold"}
	tests := []struct {
		name        string
		live        client.Object
		remote      bool
		wantDeletes int
		wantGone    bool
	}{
		{name: "owned object is deleted", live: owned, wantDeletes: 1, wantGone: true},
		{name: "remote object owned by labels is deleted", live: labelled, remote: true, wantDeletes: 1, wantGone: true},
		{name: "missing object is fine", wantGone: true},
		{name: "foreign object is left alone", live: service(8778)},
		{name: "object already deleting gets no second delete", live: deleting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var objs []client.Object
			if tt.live != nil {
				objs = append(objs, tt.live.DeepCopyObject().(client.Object))
			}
			c, w := newClient(t, objs...)
			if err := Absent(context.Background(), c, newOwner(tt.remote), service(8778)); err != nil {
				t.Fatalf("Absent: %v", err)
			}
			if w.Delete != tt.wantDeletes || w.Total() != w.Delete {
				t.Errorf("deletes = %d (writes %d), want %d", w.Delete, w.Total(), tt.wantDeletes)
			}
			err := c.Get(context.Background(), client.ObjectKeyFromObject(service(0)), &corev1.Service{})
			if gone := apierrors.IsNotFound(err); gone != tt.wantGone {
				t.Errorf("gone = %v (err %v), want %v", gone, err, tt.wantGone)
			}
		})
	}
}

func TestAbsentErrors_FakeClient(t *testing.T) {
	owned := service(8778)
	owned.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "placement", UID: ownerUID, Controller: boolPtr(true)}}
	tests := []struct {
		name      string
		funcs     interceptor.Funcs
		wantErrIn string
	}{
		{
			name: "read failure is returned",
			funcs: interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return errors.New("boom")
			}},
			wantErrIn: "reading",
		},
		{
			name: "delete failure is returned",
			funcs: interceptor.Funcs{Delete: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return errors.New("boom")
			}},
			wantErrIn: "deleting",
		},
		{
			name: "NotFound on delete is ignored",
			funcs: interceptor.Funcs{Delete: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return apierrors.NewNotFound(corev1.Resource("services"), "placement-api")
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).WithObjects(owned.DeepCopy()).WithInterceptorFuncs(tt.funcs).Build()
			err := Absent(context.Background(), c, newOwner(false), service(8778))
			if tt.wantErrIn == "" {
				if err != nil {
					t.Fatalf("Absent: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
			}
		})
	}
}

func TestToggle_FakeClient(t *testing.T) {
	owned := service(8778)
	owned.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "placement", UID: ownerUID, Controller: boolPtr(true)}}
	build := func() (*corev1.Service, error) { return service(8778), nil }
	tests := []struct {
		name        string
		wanted      bool
		live        client.Object
		build       func() (*corev1.Service, error)
		wantErrIn   string
		wantCreates int
		wantDeletes int
		wantPresent bool
	}{
		{name: "wanted and missing is created", wanted: true, build: build, wantCreates: 1, wantPresent: true},
		{name: "unwanted and owned is deleted", live: owned, build: build, wantDeletes: 1},
		{name: "unwanted and missing writes nothing", build: build},
		{name: "unwanted and foreign is left alone", live: service(8778), build: build, wantPresent: true},
		{
			name: "build error is returned without a write", wanted: true,
			build:     func() (*corev1.Service, error) { return nil, errors.New("bad spec") },
			wantErrIn: "bad spec",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var objs []client.Object
			if tt.live != nil {
				objs = append(objs, tt.live.DeepCopyObject().(client.Object))
			}
			c, w := newClient(t, objs...)
			err := Toggle(context.Background(), c, newOwner(false), tt.wanted, service(0), tt.build)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
			} else if err != nil {
				t.Fatalf("Toggle: %v", err)
			}
			if w.Create != tt.wantCreates || w.Delete != tt.wantDeletes || w.Update+w.Patch != 0 {
				t.Errorf("writes = %+v, want %d creates and %d deletes", *w, tt.wantCreates, tt.wantDeletes)
			}
			err = c.Get(context.Background(), client.ObjectKeyFromObject(service(0)), &corev1.Service{})
			if present := err == nil; present != tt.wantPresent {
				t.Errorf("present = %v (err %v), want %v", present, err, tt.wantPresent)
			}
		})
	}
}

func boolPtr(b bool) *bool { return &b }

// An annotation the operator stops wanting is removed; one another controller
// set on the child is kept.
func TestEnsureDropsKeysNoLongerDesired_FakeClient(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t)
	o := newOwner(false)
	first := service(8778)
	first.Annotations = map[string]string{"example.org/route": "a", "example.org/kept": "b"}
	if _, err := Ensure(ctx, c, o, first, nil); err != nil {
		t.Fatal(err)
	}
	var live corev1.Service
	if err := c.Get(ctx, client.ObjectKeyFromObject(first), &live); err != nil {
		t.Fatal(err)
	}
	live.Annotations["other.example.org/by-someone-else"] = "x"
	if err := c.Update(ctx, &live); err != nil {
		t.Fatal(err)
	}

	second := service(8778)
	second.Annotations = map[string]string{"example.org/kept": "b"}
	if _, err := Ensure(ctx, c, o, second, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(first), &live); err != nil {
		t.Fatal(err)
	}
	if _, ok := live.Annotations["example.org/route"]; ok {
		t.Errorf("annotation the operator no longer wants survived: %v", live.Annotations)
	}
	if live.Annotations["example.org/kept"] != "b" || live.Annotations["other.example.org/by-someone-else"] != "x" {
		t.Errorf("wanted or foreign annotations lost: %v", live.Annotations)
	}
}

// A hand edit of an owned field is put back by one update; a repeat writes
// nothing. Fields nobody owns (live-only labels, a clusterIP) survive.
func TestEnsureRevertsHandEdits_FakeClient(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*corev1.Service)
		check func(*corev1.Service) string
	}{
		{
			name: "port edited",
			edit: func(s *corev1.Service) { s.Spec.Ports[0].Port = 9999 },
			check: func(s *corev1.Service) string {
				if s.Spec.Ports[0].Port != 8778 {
					return "port not put back"
				}
				return ""
			},
		},
		{
			name: "port added",
			edit: func(s *corev1.Service) {
				s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "debug", Port: 5678})
			},
			check: func(s *corev1.Service) string {
				if len(s.Spec.Ports) != 1 {
					return "extra port kept"
				}
				return ""
			},
		},
		{
			name: "owned label edited",
			edit: func(s *corev1.Service) { s.Labels["app"] = "other" },
			check: func(s *corev1.Service) string {
				if s.Labels["app"] != "placement" {
					return "label not put back"
				}
				return ""
			},
		},
		{
			name: "owned label removed",
			edit: func(s *corev1.Service) { delete(s.Labels, "app") },
			check: func(s *corev1.Service) string {
				if s.Labels["app"] != "placement" {
					return "label not put back"
				}
				return ""
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			c, w := newClient(t)
			o := newOwner(false)
			seedOwned(t, c, o)
			live := getService(t, c)
			tt.edit(live)
			if err := c.Update(ctx, live); err != nil {
				t.Fatalf("hand edit: %v", err)
			}
			before := *w
			wrote, err := Ensure(ctx, c, o, service(8778), keepClusterIP)
			if err != nil || !wrote || w.Update-before.Update != 1 || w.Total()-before.Total() != 1 {
				t.Fatalf("first pass: wrote=%v err=%v writes=%+v, want exactly one update", wrote, err, *w)
			}
			live = getService(t, c)
			if msg := tt.check(live); msg != "" {
				t.Errorf("%s: %+v", msg, live)
			}
			if live.Labels["live-only"] != "kept" || live.Annotations["live-only"] != "kept" || live.Spec.ClusterIP != "10.96.0.7" {
				t.Errorf("what others own was lost: labels %v annotations %v clusterIP %q", live.Labels, live.Annotations, live.Spec.ClusterIP)
			}
			mid := *w
			wrote, err = Ensure(ctx, c, o, service(8778), keepClusterIP)
			if err != nil || wrote || w.Total() != mid.Total() {
				t.Errorf("second pass: wrote=%v err=%v writes=%d, want none", wrote, err, w.Total()-mid.Total())
			}
		})
	}
}

// A field a Preserve hook hands to the cluster (replicas under an
// autoscaler) is not drift; without the hook the same difference is.
func TestEnsurePreservedFieldIsNotDrift_FakeClient(t *testing.T) {
	deployment := func() *appsv1.Deployment {
		labels := map[string]string{"app": "placement"}
		return &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: testNS, Labels: labels},
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr.To[int32](2),
				Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "api", Image: "placement:1"}}},
				},
			},
		}
	}
	keepReplicas := func(live, desired *appsv1.Deployment) { desired.Spec.Replicas = live.Spec.Replicas }
	tests := []struct {
		name         string
		keep         Preserve[*appsv1.Deployment]
		wantUpdates  int
		wantReplicas int32
	}{
		{name: "preserved replicas", keep: keepReplicas, wantReplicas: 5},
		{name: "owned replicas", wantUpdates: 1, wantReplicas: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			c, w := newClient(t)
			o := newOwner(false)
			if _, err := Ensure(ctx, c, o, deployment(), tt.keep); err != nil {
				t.Fatal(err)
			}
			var live appsv1.Deployment
			must(t, c.Get(ctx, client.ObjectKeyFromObject(deployment()), &live))
			live.Spec.Replicas = ptr.To[int32](5) // the autoscaler scaled out
			must(t, c.Update(ctx, &live))
			before := *w
			if _, err := Ensure(ctx, c, o, deployment(), tt.keep); err != nil {
				t.Fatal(err)
			}
			if n := w.Total() - before.Total(); n != tt.wantUpdates || w.Update-before.Update != tt.wantUpdates {
				t.Errorf("writes = %d, want %d updates", n, tt.wantUpdates)
			}
			must(t, c.Get(ctx, client.ObjectKeyFromObject(deployment()), &live))
			if *live.Spec.Replicas != tt.wantReplicas {
				t.Errorf("replicas = %d, want %d", *live.Spec.Replicas, tt.wantReplicas)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
