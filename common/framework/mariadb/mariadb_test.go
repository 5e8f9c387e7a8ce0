package mariadb

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

const (
	testNS = "openstack"
	crName = "placement"
)

func managed(mode string) Request {
	return Request{
		Namespace: testNS,
		Name:      crName,
		Database: serviceapi.DatabaseSpec{
			ClusterRef:      &serviceapi.LocalObjectRef{Name: "mariadb"},
			Database:        "placement_db",
			SecretRef:       serviceapi.SecretKeyRef{Name: "placement-db", Key: "unused"},
			CredentialsMode: mode,
		},
	}
}

func TestBuild(t *testing.T) {
	ref := mariadbv1alpha1.MariaDBRef{ObjectReference: mariadbv1alpha1.ObjectReference{Name: "mariadb"}}
	meta := metav1.ObjectMeta{Name: crName, Namespace: testNS}
	tests := []struct {
		name     string
		maxConns int32
	}{
		{name: "maxUserConnections left to the operator default", maxConns: 0},
		{name: "maxUserConnections set", maxConns: 42},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := managed("")
			r.MaxUserConnections = tt.maxConns
			wantDB := &mariadbv1alpha1.Database{ObjectMeta: meta, Spec: mariadbv1alpha1.DatabaseSpec{
				MariaDBRef: ref, Name: "placement_db", CharacterSet: "utf8", Collate: "utf8_general_ci",
			}}
			wantUser := &mariadbv1alpha1.User{ObjectMeta: meta, Spec: mariadbv1alpha1.UserSpec{
				MariaDBRef: ref,
				PasswordSecretKeyRef: &mariadbv1alpha1.SecretKeySelector{
					LocalObjectReference: mariadbv1alpha1.LocalObjectReference{Name: "placement-db"}, Key: "password",
				},
				MaxUserConnections: tt.maxConns,
			}}
			wantGrant := &mariadbv1alpha1.Grant{ObjectMeta: meta, Spec: mariadbv1alpha1.GrantSpec{
				MariaDBRef: ref, Privileges: []string{"ALL PRIVILEGES"}, Database: "placement_db", Table: "*", Username: crName,
			}}
			if d := cmp.Diff(wantDB, BuildDatabase(r)); d != "" {
				t.Errorf("Database (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantUser, BuildUser(r)); d != "" {
				t.Errorf("User (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantGrant, BuildGrant(r)); d != "" {
				t.Errorf("Grant (-want +got):\n%s", d)
			}
		})
	}
}

func newClient(t *testing.T, extra interceptor.Funcs, objs ...client.Object) (client.Client, *testenv.Writes) {
	t.Helper()
	w := &testenv.Writes{}
	c := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).
		WithStatusSubresource(&mariadbv1alpha1.MariaDB{}, &mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}).
		WithObjects(objs...).WithInterceptorFuncs(testenv.CountWrites(w, extra)).Build()
	return c, w
}

func owner() apply.Owner {
	cr := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: crName, Namespace: testNS, UID: "owner-uid"}}
	return apply.Owner{Object: cr, Kind: "Placement", Scheme: managerconfig.NewScheme()}
}

func readyCond(status metav1.ConditionStatus) []metav1.Condition {
	return []metav1.Condition{{Type: mariadbv1alpha1.ConditionTypeReady, Status: status, Reason: "Test", LastTransitionTime: metav1.Now()}}
}

func cluster(status metav1.ConditionStatus) *mariadbv1alpha1.MariaDB {
	return &mariadbv1alpha1.MariaDB{
		ObjectMeta: metav1.ObjectMeta{Name: "mariadb", Namespace: testNS},
		Status:     mariadbv1alpha1.MariaDBStatus{Conditions: readyCond(status)},
	}
}

// markReady sets the Ready condition of the named children through the status subresource.
func markReady(t *testing.T, c client.Client, kinds ...string) {
	t.Helper()
	for _, k := range kinds {
		var obj client.Object
		switch k {
		case "Database":
			obj = &mariadbv1alpha1.Database{}
		case "User":
			obj = &mariadbv1alpha1.User{}
		case "Grant":
			obj = &mariadbv1alpha1.Grant{}
		}
		if err := c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: crName}, obj); err != nil {
			t.Fatalf("reading %s: %v", k, err)
		}
		switch o := obj.(type) {
		case *mariadbv1alpha1.Database:
			o.Status.Conditions = readyCond(metav1.ConditionTrue)
		case *mariadbv1alpha1.User:
			o.Status.Conditions = readyCond(metav1.ConditionTrue)
		case *mariadbv1alpha1.Grant:
			o.Status.Conditions = readyCond(metav1.ConditionTrue)
		}
		if err := c.Status().Update(context.Background(), obj); err != nil {
			t.Fatalf("marking %s Ready: %v", k, err)
		}
	}
}

func exists(t *testing.T, c client.Client, obj client.Object) bool {
	t.Helper()
	err := c.Get(context.Background(), client.ObjectKey{Namespace: testNS, Name: crName}, obj)
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("reading %T: %v", obj, err)
	}
	return err == nil
}

func TestProvision_FakeClient(t *testing.T) {
	brownfield := Request{Namespace: testNS, Name: crName, Database: serviceapi.DatabaseSpec{Host: "db.example.org", Database: "placement"}}
	tests := []struct {
		name string
		req  Request
		objs []client.Object
		// prime runs one Provision first and then marks these children Ready.
		prime       bool
		markReady   []string
		want        Verdict
		wantMsgIn   string
		wantCreates int
		wantKinds   []string
	}{
		{name: "brownfield is a no-op", req: brownfield, want: Verdict{Ready: true}},
		{
			name: "missing MariaDB", req: managed(""),
			want: Verdict{Reason: conditions.ReasonClusterNotReady}, wantMsgIn: "MariaDB mariadb not found",
		},
		{
			name: "MariaDB not Ready", req: managed(""), objs: []client.Object{cluster(metav1.ConditionFalse)},
			want: Verdict{Reason: conditions.ReasonClusterNotReady}, wantMsgIn: "MariaDB mariadb is not Ready",
		},
		{
			name: "Ready cluster: Database, User and Grant created and waited for", req: managed(""),
			objs: []client.Object{cluster(metav1.ConditionTrue)}, wantCreates: 3,
			want: Verdict{Reason: conditions.ReasonWaitingForDatabase}, wantMsgIn: "[Database User Grant] placement",
			wantKinds: []string{"Database", "User", "Grant"},
		},
		{
			name: "Dynamic credentials: Database only", req: managed(serviceapi.CredentialsDynamic),
			objs: []client.Object{cluster(metav1.ConditionTrue)}, wantCreates: 1,
			want: Verdict{Reason: conditions.ReasonWaitingForDatabase}, wantMsgIn: "[Database] placement",
			wantKinds: []string{"Database"},
		},
		{
			name: "some children Ready: the others are named", req: managed(""),
			objs: []client.Object{cluster(metav1.ConditionTrue)}, prime: true, markReady: []string{"Database", "Grant"},
			want: Verdict{Reason: conditions.ReasonWaitingForDatabase}, wantMsgIn: "[User] placement",
			wantKinds: []string{"Database", "User", "Grant"},
		},
		{
			name: "all Ready: Ready without a write", req: managed(""),
			objs: []client.Object{cluster(metav1.ConditionTrue)}, prime: true, markReady: []string{"Database", "User", "Grant"},
			want: Verdict{Ready: true}, wantKinds: []string{"Database", "User", "Grant"},
		},
		{
			name: "Dynamic with Database Ready is Ready", req: managed(serviceapi.CredentialsDynamic),
			objs: []client.Object{cluster(metav1.ConditionTrue)}, prime: true, markReady: []string{"Database"},
			want: Verdict{Ready: true}, wantKinds: []string{"Database"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			c, w := newClient(t, interceptor.Funcs{}, tt.objs...)
			if tt.prime {
				if _, err := Provision(ctx, c, owner(), tt.req); err != nil {
					t.Fatalf("priming pass: %v", err)
				}
				markReady(t, c, tt.markReady...)
			}
			before := *w
			got, err := Provision(ctx, c, owner(), tt.req)
			if err != nil {
				t.Fatalf("Provision: %v", err)
			}
			if got.Ready != tt.want.Ready || got.Reason != tt.want.Reason {
				t.Errorf("verdict = %+v, want Ready=%v Reason=%q", got, tt.want.Ready, tt.want.Reason)
			}
			if !strings.Contains(got.Message, tt.wantMsgIn) {
				t.Errorf("message = %q, want it to contain %q", got.Message, tt.wantMsgIn)
			}
			if n := w.Create - before.Create; n != tt.wantCreates {
				t.Errorf("creates = %d, want %d", n, tt.wantCreates)
			}
			if n := w.Total() - before.Total() - (w.Create - before.Create); n != 0 {
				t.Errorf("%d writes other than creates, want none", n)
			}
			present := map[string]bool{
				"Database": exists(t, c, &mariadbv1alpha1.Database{}),
				"User":     exists(t, c, &mariadbv1alpha1.User{}),
				"Grant":    exists(t, c, &mariadbv1alpha1.Grant{}),
			}
			for kind, ok := range present {
				want := false
				for _, k := range tt.wantKinds {
					want = want || k == kind
				}
				if ok != want {
					t.Errorf("%s present = %v, want %v", kind, ok, want)
				}
			}
		})
	}
}

func TestProvisionDynamicLeavesUserAndGrant_FakeClient(t *testing.T) {
	ctx := context.Background()
	c, w := newClient(t, interceptor.Funcs{}, cluster(metav1.ConditionTrue))
	if _, err := Provision(ctx, c, owner(), managed("")); err != nil {
		t.Fatalf("static pass: %v", err)
	}
	before := *w
	if _, err := Provision(ctx, c, owner(), managed(serviceapi.CredentialsDynamic)); err != nil {
		t.Fatalf("dynamic pass: %v", err)
	}
	if w.Total() != before.Total() {
		t.Errorf("%d writes after switching to Dynamic, want none", w.Total()-before.Total())
	}
	if !exists(t, c, &mariadbv1alpha1.User{}) || !exists(t, c, &mariadbv1alpha1.Grant{}) {
		t.Error("switching to Dynamic removed the existing User or Grant")
	}
}

func TestProvisionErrors_FakeClient(t *testing.T) {
	foreignDB := BuildDatabase(managed(""))
	tests := []struct {
		name      string
		funcs     interceptor.Funcs
		objs      []client.Object
		wantErrIn string
	}{
		{
			name: "MariaDB read failure",
			funcs: interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return errors.New("boom")
			}},
			wantErrIn: "reading MariaDB mariadb",
		},
		{
			name: "foreign Database is not adopted", objs: []client.Object{cluster(metav1.ConditionTrue), foreignDB},
			wantErrIn: "refusing to adopt",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newClient(t, tt.funcs, tt.objs...)
			_, err := Provision(context.Background(), c, owner(), managed(""))
			if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
			}
		})
	}
}

func TestCleanup_FakeClient(t *testing.T) {
	meta := func(deleting bool) metav1.ObjectMeta {
		controller := true
		m := metav1.ObjectMeta{Name: crName, Namespace: testNS, OwnerReferences: []metav1.OwnerReference{
			{APIVersion: "v1", Kind: "ConfigMap", Name: crName, UID: "owner-uid", Controller: &controller}}}
		if deleting {
			m.DeletionTimestamp = &metav1.Time{Time: metav1.Now().Time}
			m.Finalizers = []string{"k8s.mariadb.com/test"}
		}
		return m
	}
	db := func(deleting bool) client.Object { return &mariadbv1alpha1.Database{ObjectMeta: meta(deleting)} }
	user := func(deleting bool) client.Object { return &mariadbv1alpha1.User{ObjectMeta: meta(deleting)} }
	grant := func(deleting bool) client.Object { return &mariadbv1alpha1.Grant{ObjectMeta: meta(deleting)} }
	other := &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Name: "glance", Namespace: testNS}}
	tests := []struct {
		name        string
		objs        []client.Object
		wantLive    bool
		wantDeletes int
	}{
		{name: "all three live", objs: []client.Object{db(false), user(false), grant(false)}, wantLive: true, wantDeletes: 3},
		{name: "only the Grant live", objs: []client.Object{grant(false)}, wantLive: true, wantDeletes: 1},
		{name: "none", wantDeletes: 0},
		{name: "all already deleting are not live", objs: []client.Object{db(true), user(true), grant(true)}, wantDeletes: 3},
		{name: "one deleting, one live", objs: []client.Object{db(true), user(false)}, wantLive: true, wantDeletes: 2},
		{name: "a same-named Database of someone else is left alone",
			objs: []client.Object{&mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Name: crName, Namespace: testNS}}}, wantDeletes: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w := newClient(t, interceptor.Funcs{}, append(tt.objs, other.DeepCopy())...)
			live, err := Cleanup(context.Background(), c, c, owner(), testNS, crName)
			if err != nil {
				t.Fatalf("Cleanup: %v", err)
			}
			if live != tt.wantLive {
				t.Errorf("live = %v, want %v", live, tt.wantLive)
			}
			if w.Delete != tt.wantDeletes {
				t.Errorf("deletes = %d, want %d", w.Delete, tt.wantDeletes)
			}
			for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
				if exists(t, c, obj) && obj.GetDeletionTimestamp().IsZero() && len(obj.GetOwnerReferences()) > 0 {
					t.Errorf("%T %s still live after Cleanup", obj, crName)
				}
			}
			if err := c.Get(context.Background(), client.ObjectKeyFromObject(other), &mariadbv1alpha1.Database{}); err != nil {
				t.Errorf("another CR's Database: %v, want it untouched", err)
			}
		})
	}
}

func TestCleanupErrors_FakeClient(t *testing.T) {
	controller := true
	live := &mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Name: crName, Namespace: testNS, OwnerReferences: []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "ConfigMap", Name: crName, UID: "owner-uid", Controller: &controller}}}}
	tests := []struct {
		name      string
		get       func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error
		del       func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error
		wantErrIn string
		wantLive  bool
	}{
		{
			name: "read failure",
			get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return errors.New("boom")
			},
			wantErrIn: "reading *v1alpha1.Database placement",
		},
		{
			name: "kinds not served are skipped",
			get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
				return &apimeta.NoKindMatchError{GroupKind: schema.GroupKind{Group: "k8s.mariadb.com", Kind: "Database"}}
			},
		},
		{
			name: "delete failure",
			del: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return errors.New("boom")
			},
			wantErrIn: "deleting *v1alpha1.Database placement",
		},
		{
			name: "NotFound on delete still counts the CR as live",
			del: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error {
				return apierrors.NewNotFound(schema.GroupResource{Group: "k8s.mariadb.com", Resource: "databases"}, crName)
			},
			wantLive: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newClient(t, interceptor.Funcs{Get: tt.get, Delete: tt.del}, live.DeepCopy())
			got, err := Cleanup(context.Background(), c, c, owner(), testNS, crName)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				return
			}
			if err != nil {
				t.Fatalf("Cleanup: %v", err)
			}
			if got != tt.wantLive {
				t.Errorf("live = %v, want %v", got, tt.wantLive)
			}
		})
	}
}
