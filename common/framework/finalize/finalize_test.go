package finalize

import (
	"context"
	"errors"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
	"slices"
	"strings"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

const (
	testNS       = "openstack"
	crName       = "placement"
	svcFinalizer = "test.openstack.c5c3.io/finalizer"
	// keepFinalizer belongs to someone else and keeps the CR readable after the flow.
	keepFinalizer = "example.org/keep"
)

var (
	testGV    = schema.GroupVersion{Group: "test.openstack.c5c3.io", Version: "v1alpha1"}
	deletedAt = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
)

func newClient(t *testing.T, extra interceptor.Funcs, objs ...client.Object) (client.Client, *testenv.Writes) {
	t.Helper()
	w := &testenv.Writes{}
	c := fake.NewClientBuilder().WithScheme(testenv.CRScheme(testGV)).
		WithStatusSubresource(&testenv.CR{}, &mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}).
		WithObjects(objs...).WithInterceptorFuncs(testenv.CountWrites(w, extra)).Build()
	return c, w
}

func terminating(finalizers ...string) *testenv.CR {
	return &testenv.CR{ObjectMeta: metav1.ObjectMeta{
		Name: crName, Namespace: testNS, UID: "cr-uid", Generation: 2,
		DeletionTimestamp: &metav1.Time{Time: deletedAt},
		Finalizers:        append([]string{keepFinalizer}, finalizers...),
	}}
}

func readCR(t *testing.T, c client.Client) *testenv.CR {
	t.Helper()
	var cr testenv.CR
	if err := c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: crName}, &cr); err != nil {
		t.Fatalf("reading CR: %v", err)
	}
	return &cr
}

func drain(r *events.FakeRecorder) []string {
	var out []string
	for {
		select {
		case e := <-r.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

// database is owned by the test CR both ways: a controller reference (local)
// and the ownership labels (remote), as Cleanup only touches owned CRs.
func database(name string) *mariadbv1alpha1.Database {
	controller := true
	return &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS,
		Labels:          targetcluster.OwnerLabels("Placement", crName, testNS),
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Test", Name: crName, UID: "cr-uid", Controller: &controller}}}}
}

func configMap(name, namespace string, labels map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels}}
}

func mapper(gvks ...schema.GroupVersionKind) apimeta.RESTMapper {
	m := apimeta.NewDefaultRESTMapper(nil)
	for _, gvk := range gvks {
		m.Add(gvk, apimeta.RESTScopeNamespace)
	}
	return m
}

// failingMapper answers RESTMapping for kind with an error other than NoMatch,
// as a target whose discovery fails does; no real API server does so on demand.
type failingMapper struct {
	apimeta.RESTMapper
	kind schema.GroupKind
}

func (m failingMapper) RESTMapping(gk schema.GroupKind, versions ...string) (*apimeta.RESTMapping, error) {
	if gk == m.kind {
		return nil, errors.New("discovery: connection refused")
	}
	return m.RESTMapper.RESTMapping(gk, versions...)
}

var (
	cmGVK     = corev1.SchemeGroupVersion.WithKind("ConfigMap")
	secretGVK = corev1.SchemeGroupVersion.WithKind("Secret")
	ownLabels = targetcluster.OwnerLabels("Placement", crName, testNS)
)

func TestFlowRun_FakeClient(t *testing.T) {
	unreachable := errors.New(`cluster "edge-1" is not registered`)
	both := []string{svcFinalizer, targetcluster.RemoteChildrenFinalizer}
	deletingDB := database(crName)
	deletingDB.DeletionTimestamp = &metav1.Time{Time: deletedAt}
	deletingDB.Finalizers = []string{"database.k8s.mariadb.com/finalizer"}
	tests := []struct {
		name       string
		finalizers []string
		remote     bool
		// unresolvable makes resolve fail; otherwise it returns the target
		// (the management cluster when !remote).
		unresolvable bool
		grace        time.Duration
		// passes are the clock readings, as offsets from deletionTimestamp, of successive Runs.
		passes         []time.Duration
		localObjs      []client.Object
		remoteObjs     []client.Object
		want           ctrl.Result
		wantErrIn      string
		wantEvents     []string
		wantFinalizers []string
		wantReleased   bool
		wantHold       bool
		wantStatus     int
		// wantRemoteLeft are the remote ConfigMaps expected to survive.
		wantRemoteLeft []string
		// secretDiscoveryFails makes the target's discovery of Secrets fail.
		secretDiscoveryFails bool
		// wantHoldIn is in the hold's message; empty means the resolver error.
		wantHoldIn string
	}{
		{
			name: "local CR with live MariaDB CRs holds", finalizers: []string{svcFinalizer},
			localObjs: []client.Object{database(crName)}, passes: []time.Duration{time.Second},
			want:           ctrl.Result{RequeueAfter: 30 * time.Second},
			wantEvents:     []string{"Normal FinalizingDatabase deleting MariaDB Database, User and Grant placement"},
			wantFinalizers: []string{keepFinalizer, svcFinalizer},
		},
		{
			name: "local CR without MariaDB CRs releases", finalizers: []string{svcFinalizer},
			localObjs: []client.Object{database("glance")}, passes: []time.Duration{time.Second},
			wantEvents:     []string{"Normal DatabaseFinalized no MariaDB CRs remain; releasing the finalizer"},
			wantFinalizers: []string{keepFinalizer}, wantReleased: true,
		},
		{
			name: "a Database already deleting is not waited for", finalizers: []string{svcFinalizer},
			localObjs: []client.Object{deletingDB}, passes: []time.Duration{time.Second},
			wantEvents:     []string{"Normal DatabaseFinalized no MariaDB CRs remain; releasing the finalizer"},
			wantFinalizers: []string{keepFinalizer}, wantReleased: true,
		},
		{
			name: "local resolve failure is an error", finalizers: []string{svcFinalizer}, unresolvable: true,
			passes: []time.Duration{time.Hour}, wantErrIn: "resolving cluster for deletion",
			wantFinalizers: []string{keepFinalizer, svcFinalizer},
		},
		{
			name: "remote unresolvable within the grace holds", finalizers: both, remote: true, unresolvable: true,
			passes: []time.Duration{time.Minute}, want: ctrl.Result{RequeueAfter: 15 * time.Second},
			wantFinalizers: []string{keepFinalizer, svcFinalizer, targetcluster.RemoteChildrenFinalizer}, wantHold: true, wantStatus: 1,
		},
		{
			name: "remote unresolvable: the process window starts at the first failure", finalizers: both, remote: true, unresolvable: true,
			passes: []time.Duration{time.Hour, time.Hour + 4*time.Minute}, want: ctrl.Result{RequeueAfter: 15 * time.Second},
			wantFinalizers: []string{keepFinalizer, svcFinalizer, targetcluster.RemoteChildrenFinalizer}, wantHold: true, wantStatus: 1,
		},
		{
			name: "remote unresolvable: deletion window not yet passed", finalizers: both, remote: true, unresolvable: true,
			passes: []time.Duration{-time.Hour, 4 * time.Minute}, want: ctrl.Result{RequeueAfter: 15 * time.Second},
			wantFinalizers: []string{keepFinalizer, svcFinalizer, targetcluster.RemoteChildrenFinalizer}, wantHold: true, wantStatus: 1,
		},
		{
			name: "remote unresolvable past both windows abandons", finalizers: both, remote: true, unresolvable: true,
			passes: []time.Duration{time.Minute, 6 * time.Minute},
			wantEvents: []string{
				"Warning RemoteChildrenAbandoned target cluster unreachable past 5m0s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: " + unreachable.Error(),
				"Warning RemoteChildrenAbandoned target cluster unreachable past 5m0s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: " + unreachable.Error(),
			},
			wantFinalizers: []string{keepFinalizer}, wantReleased: true, wantStatus: 1,
		},
		{
			name: "AbandonGrace overrides the default", finalizers: both, remote: true, unresolvable: true, grace: time.Minute,
			passes: []time.Duration{2 * time.Minute, 3 * time.Minute},
			wantEvents: []string{
				"Warning RemoteChildrenAbandoned target cluster unreachable past 1m0s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: " + unreachable.Error(),
				"Warning RemoteChildrenAbandoned target cluster unreachable past 1m0s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: " + unreachable.Error(),
			},
			wantFinalizers: []string{keepFinalizer}, wantReleased: true, wantStatus: 1,
		},
		{
			name: "remote target with live MariaDB CRs holds both finalizers", finalizers: both, remote: true,
			remoteObjs: []client.Object{database(crName), configMap("placement-config", testNS, ownLabels)},
			passes:     []time.Duration{time.Second}, want: ctrl.Result{RequeueAfter: 30 * time.Second},
			wantEvents:     []string{"Normal FinalizingDatabase deleting MariaDB Database, User and Grant placement"},
			wantFinalizers: []string{keepFinalizer, svcFinalizer, targetcluster.RemoteChildrenFinalizer},
			wantRemoteLeft: []string{"placement-config"},
		},
		{
			name: "remote target without MariaDB CRs: owned children deleted, both released", finalizers: both, remote: true,
			remoteObjs: []client.Object{
				configMap("placement-config", testNS, ownLabels),
				configMap("foreign", testNS, nil),
				configMap("other-ns", "elsewhere", ownLabels),
			},
			passes:         []time.Duration{time.Second},
			wantEvents:     []string{"Normal DatabaseFinalized no MariaDB CRs remain; releasing the finalizer"},
			wantFinalizers: []string{keepFinalizer}, wantReleased: true,
			wantRemoteLeft: []string{"foreign", "other-ns"},
		},
		{
			// Secrets may still be there: releasing now would leave them behind.
			name: "remote-children: a discovery failure holds the finalizer", finalizers: []string{targetcluster.RemoteChildrenFinalizer}, remote: true,
			secretDiscoveryFails: true,
			remoteObjs:           []client.Object{configMap("placement-config", testNS, ownLabels)},
			passes:               []time.Duration{time.Second}, want: ctrl.Result{RequeueAfter: 15 * time.Second},
			wantFinalizers: []string{keepFinalizer, targetcluster.RemoteChildrenFinalizer}, wantHold: true, wantStatus: 1,
			wantHoldIn: "remote Secret: probing /v1, Kind=Secret: discovery: connection refused",
		},
		{
			name: "remote-children: a discovery failure past both windows abandons", finalizers: []string{targetcluster.RemoteChildrenFinalizer}, remote: true,
			secretDiscoveryFails: true,
			remoteObjs:           []client.Object{configMap("placement-config", testNS, ownLabels)},
			passes:               []time.Duration{time.Minute, 6 * time.Minute},
			wantEvents: []string{
				"Warning RemoteChildrenAbandoned target cluster unreachable past 5m0s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: remote Secret: probing /v1, Kind=Secret: discovery: connection refused",
			},
			wantFinalizers: []string{keepFinalizer}, wantStatus: 1,
		},
		{
			name: "remote-children finalizer alone", finalizers: []string{targetcluster.RemoteChildrenFinalizer}, remote: true,
			remoteObjs:     []client.Object{configMap("placement-config", testNS, ownLabels)},
			passes:         []time.Duration{time.Second},
			wantFinalizers: []string{keepFinalizer},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			mgmt, w := newClient(t, interceptor.Funcs{}, append([]client.Object{terminating(tt.finalizers...)}, tt.localObjs...)...)
			target := targetcluster.Target{Client: mgmt, Reader: mgmt, Mapper: mapper(cmGVK)}
			if tt.remote {
				rc, _ := newClient(t, interceptor.Funcs{}, tt.remoteObjs...)
				target = targetcluster.Target{Name: "edge-1", Client: rc, Reader: rc, Mapper: mapper(cmGVK)}
				if tt.secretDiscoveryFails {
					target.Mapper = failingMapper{RESTMapper: mapper(cmGVK, secretGVK), kind: secretGVK.GroupKind()}
				}
			}
			rec := events.NewFakeRecorder(10)
			var released []types.NamespacedName
			var now time.Time
			f := &Flow{
				Client: mgmt, Recorder: rec, Finalizer: svcFinalizer, Kind: "Placement", AbandonGrace: tt.grace,
				OnRelease:     func(k types.NamespacedName) { released = append(released, k) },
				RemoteKinds:   []RemoteKind{cmGVK, secretGVK},
				SubConditions: []string{conditions.TypeSecretsReady},
				Now:           func() time.Time { return now },
			}
			resolve := func(context.Context) (targetcluster.Target, error) {
				if tt.unresolvable {
					return targetcluster.Target{}, unreachable
				}
				return target, nil
			}
			var got ctrl.Result
			var err error
			for i, offset := range tt.passes {
				now = deletedAt.Add(offset)
				got, err = f.Run(ctx, readCR(t, mgmt), tt.remote, resolve)
				if i < len(tt.passes)-1 && (err != nil || got.RequeueAfter != UnresolvedRequeue) {
					t.Fatalf("pass %d: result %+v, err %v; want a hold", i, got, err)
				}
			}
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
			} else if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got != tt.want {
				t.Errorf("result = %+v, want %+v", got, tt.want)
			}
			// The process window is remembered while held and forgotten once the flow completes.
			wantRemembered := 0
			if tt.wantHold {
				wantRemembered = 1
			}
			if n := len(f.firstFailure); n != wantRemembered {
				t.Errorf("remembered first failures = %d, want %d", n, wantRemembered)
			}
			if ev := drain(rec); !slices.Equal(ev, tt.wantEvents) {
				t.Errorf("events = %q, want %q", ev, tt.wantEvents)
			}
			cr := readCR(t, mgmt)
			if !slices.Equal(cr.Finalizers, tt.wantFinalizers) {
				t.Errorf("finalizers = %v, want %v", cr.Finalizers, tt.wantFinalizers)
			}
			wantReleased := []types.NamespacedName(nil)
			if tt.wantReleased {
				wantReleased = []types.NamespacedName{{Namespace: testNS, Name: crName}}
			}
			if !slices.Equal(released, wantReleased) {
				t.Errorf("OnRelease calls = %v, want %v", released, wantReleased)
			}
			if w.Status != tt.wantStatus {
				t.Errorf("status writes = %d, want %d", w.Status, tt.wantStatus)
			}
			sc := apimeta.FindStatusCondition(cr.Status.Conditions, conditions.TypeSecretsReady)
			if tt.wantHold {
				cause := tt.wantHoldIn
				if cause == "" {
					cause = unreachable.Error()
				}
				if sc == nil || sc.Status != metav1.ConditionFalse || sc.Reason != conditions.ReasonTargetClusterUnavailable || !strings.Contains(sc.Message, cause) {
					t.Errorf("SecretsReady = %+v, want False/TargetClusterUnavailable with %q", sc, cause)
				}
			}
			if tt.remote && !tt.unresolvable {
				var left corev1.ConfigMapList
				if err := target.Client.List(ctx, &left); err != nil {
					t.Fatalf("listing remote ConfigMaps: %v", err)
				}
				var names []string
				for _, cm := range left.Items {
					names = append(names, cm.Name)
				}
				slices.Sort(names)
				if !slices.Equal(names, tt.wantRemoteLeft) {
					t.Errorf("remote ConfigMaps left = %v, want %v", names, tt.wantRemoteLeft)
				}
			}
		})
	}
}

func TestFlowReleasesLastFinalizer_FakeClient(t *testing.T) {
	cr := terminating(svcFinalizer)
	cr.Finalizers = []string{svcFinalizer}
	mgmt, _ := newClient(t, interceptor.Funcs{}, cr)
	f := &Flow{Client: mgmt, Recorder: events.NewFakeRecorder(10), Finalizer: svcFinalizer, Kind: "Placement"}
	resolve := func(context.Context) (targetcluster.Target, error) {
		return targetcluster.Target{Client: mgmt, Reader: mgmt}, nil
	}
	got, err := f.Run(context.Background(), readCR(t, mgmt), false, resolve)
	if err != nil || got != (ctrl.Result{}) {
		t.Fatalf("Run = %+v, %v; want a clean release", got, err)
	}
	err = mgmt.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: crName}, &testenv.CR{})
	if !apierrors.IsNotFound(err) {
		t.Errorf("CR after its last finalizer: %v, want NotFound", err)
	}
}

func TestDeleteRemoteChildren_FakeClient(t *testing.T) {
	owner := terminating()
	boom := errors.New("boom")
	ownedSecret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "placement-db", Namespace: testNS, Labels: ownLabels}}
	objs := func() []client.Object {
		return []client.Object{
			configMap("placement-config", testNS, ownLabels),
			configMap("glance-config", testNS, targetcluster.OwnerLabels("Placement", "glance", testNS)),
			configMap("other-ns", "elsewhere", ownLabels),
			ownedSecret.DeepCopy(),
		}
	}
	tests := []struct {
		name      string
		served    []schema.GroupVersionKind
		funcs     interceptor.Funcs
		failing   *schema.GroupVersionKind // discovery of this kind fails
		wantErrIn string
		wantLeft  []string
	}{
		{
			name: "owned children of every served kind are deleted", served: []schema.GroupVersionKind{cmGVK, secretGVK},
			wantLeft: []string{"ConfigMap/glance-config", "ConfigMap/other-ns"},
		},
		{
			name: "a kind the cluster does not serve is skipped", served: []schema.GroupVersionKind{cmGVK},
			wantLeft: []string{"ConfigMap/glance-config", "ConfigMap/other-ns", "Secret/placement-db"},
		},
		{
			// A transient discovery failure is no proof the kind is absent:
			// the error holds the finalizer; the other kinds are still handled.
			name: "discovery failure is returned", served: []schema.GroupVersionKind{cmGVK, secretGVK}, failing: &secretGVK,
			wantErrIn: "remote Secret: probing /v1, Kind=Secret: discovery: connection refused",
			wantLeft:  []string{"ConfigMap/glance-config", "ConfigMap/other-ns", "Secret/placement-db"},
		},
		{
			name: "list failure is returned", served: []schema.GroupVersionKind{cmGVK},
			funcs: interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
				return boom
			}},
			wantErrIn: "listing remote ConfigMap",
		},
		{
			name: "delete failure is returned", served: []schema.GroupVersionKind{cmGVK},
			funcs: interceptor.Funcs{Delete: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return boom
			}},
			wantErrIn: "deleting remote ConfigMap placement-config",
		},
		{
			name: "NotFound on delete is ignored", served: []schema.GroupVersionKind{cmGVK},
			funcs: interceptor.Funcs{Delete: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return apierrors.NewNotFound(corev1.Resource("configmaps"), "placement-config")
			}},
			wantLeft: []string{"ConfigMap/glance-config", "ConfigMap/other-ns", "ConfigMap/placement-config", "Secret/placement-db"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			rc, _ := newClient(t, tt.funcs, objs()...)
			m := mapper(tt.served...)
			if tt.failing != nil {
				m = failingMapper{RESTMapper: m, kind: tt.failing.GroupKind()}
			}
			target := targetcluster.Target{Name: "edge-1", Client: rc, Reader: rc, Mapper: m}
			err := DeleteRemoteChildren(ctx, target, []RemoteKind{cmGVK, secretGVK}, "Placement", owner)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				if tt.wantLeft == nil {
					return
				}
			} else if err != nil {
				t.Fatalf("DeleteRemoteChildren: %v", err)
			}
			var left []string
			var cms corev1.ConfigMapList
			var secrets corev1.SecretList
			if err := rc.List(ctx, &cms); err != nil {
				t.Fatal(err)
			}
			if err := rc.List(ctx, &secrets); err != nil {
				t.Fatal(err)
			}
			for _, cm := range cms.Items {
				left = append(left, "ConfigMap/"+cm.Name)
			}
			for _, s := range secrets.Items {
				left = append(left, "Secret/"+s.Name)
			}
			slices.Sort(left)
			if !slices.Equal(left, tt.wantLeft) {
				t.Errorf("left = %v, want %v", left, tt.wantLeft)
			}
		})
	}
}

// An engaged target that stops answering holds deletion like an unresolvable
// one, then is abandoned once both grace windows have passed.
func TestFlowEngagedTargetUnreachable_FakeClient(t *testing.T) {
	ctx := context.Background()
	mgmt, _ := newClient(t, interceptor.Funcs{}, terminating(svcFinalizer, targetcluster.RemoteChildrenFinalizer))
	down := errors.New("dial tcp 127.0.0.1:1: connect: connection refused")
	rc, _ := newClient(t, interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
		return down
	}})
	target := targetcluster.Target{Name: "edge-1", Client: rc, Reader: rc, Mapper: mapper(cmGVK)}
	rec := events.NewFakeRecorder(10)
	var now time.Time
	f := &Flow{Client: mgmt, Recorder: rec, Finalizer: svcFinalizer, Kind: "Placement",
		SubConditions: []string{conditions.TypeSecretsReady}, Now: func() time.Time { return now }}
	resolve := func(context.Context) (targetcluster.Target, error) { return target, nil }

	now = deletedAt.Add(time.Second)
	got, err := f.Run(ctx, readCR(t, mgmt), true, resolve)
	if err != nil || got.RequeueAfter != UnresolvedRequeue {
		t.Fatalf("first pass = %+v, %v; want a hold", got, err)
	}
	cr := readCR(t, mgmt)
	if c := apimeta.FindStatusCondition(cr.Status.Conditions, conditions.TypeSecretsReady); c == nil || c.Reason != conditions.ReasonTargetClusterUnavailable {
		t.Errorf("SecretsReady = %+v, want TargetClusterUnavailable", c)
	}
	now = deletedAt.Add(DefaultAbandonGrace + 2*time.Second)
	if got, err = f.Run(ctx, readCR(t, mgmt), true, resolve); err != nil || got != (ctrl.Result{}) {
		t.Fatalf("after the grace = %+v, %v; want release", got, err)
	}
	if ev := drain(rec); len(ev) != 2 || !strings.Contains(ev[0], EventRemoteChildrenAbandoned) {
		t.Errorf("events = %q, want two RemoteChildrenAbandoned", ev)
	}
	if cr := readCR(t, mgmt); !slices.Equal(cr.Finalizers, []string{keepFinalizer}) {
		t.Errorf("finalizers = %v, want only the foreign one", cr.Finalizers)
	}
}
