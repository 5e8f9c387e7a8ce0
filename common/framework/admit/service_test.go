package admit

import (
	"context"
	"errors"
	corev1 "k8s.io/api/core/v1"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
)

func valid() *serviceapi.ServiceSpec {
	s := bare()
	testDefaults.Apply(s, nil)
	return s
}

func paths(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	slices.Sort(out)
	return out
}

// The shared body reaches every block; the operators' tests cover each rule
// through their own Spec.
func TestServiceSpec(t *testing.T) {
	cases := []struct {
		name string
		mut  func(s, old *serviceapi.ServiceSpec, u *serviceapi.UWSGISpec)
		want []string
	}{
		{"valid", func(*serviceapi.ServiceSpec, *serviceapi.ServiceSpec, *serviceapi.UWSGISpec) {}, nil},
		{"targetClusterRef changed on update", func(s, old *serviceapi.ServiceSpec, _ *serviceapi.UWSGISpec) {
			s.TargetClusterRef, old.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "b"}, &serviceapi.TargetClusterRef{Name: "a"}
		}, []string{"FieldValueInvalid spec.targetClusterRef"}},
		{"harakiri from the operator's uwsgi block", func(_, _ *serviceapi.ServiceSpec, u *serviceapi.UWSGISpec) { u.Harakiri = new(int32(25)) },
			[]string{"FieldValueInvalid spec.apiServer.uwsgi.harakiri"}},
		{"several blocks at once", func(s, _ *serviceapi.ServiceSpec, _ *serviceapi.UWSGISpec) {
			s.Region, s.KeystoneEndpoint, s.Gateway = "a\nb", "", &serviceapi.GatewaySpec{}
		}, []string{"FieldValueInvalid spec.region", "FieldValueRequired spec.gateway.hostname",
			"FieldValueRequired spec.gateway.parentRef.name", "FieldValueRequired spec.keystoneEndpoint"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, old, u := valid(), valid(), &serviceapi.UWSGISpec{}
			tc.mut(s, old, u)
			if got := paths(ServiceSpec("x", "svc", s, old, u)); !slices.Equal(got, tc.want) {
				t.Errorf("errors = %q, want %q", got, tc.want)
			}
		})
	}
	// Spread selectors must name the service and the instance.
	s := valid()
	s.Deployment.TopologySpreadConstraints = spreadOn(map[string]string{"app.kubernetes.io/name": "svc", "app.kubernetes.io/instance": "x"})
	if errs := ServiceSpec("x", "svc", s, nil, nil); len(errs) != 0 {
		t.Errorf("matching selector refused: %v", errs)
	}
	if errs := ServiceSpec("other", "svc", s, nil, nil); len(errs) != 1 || !strings.Contains(errs[0].Detail, "instance: other") {
		t.Errorf("selector of another instance: %v", errs)
	}
}

func spreadOn(labels map[string]string) []corev1.TopologySpreadConstraint {
	return []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: "ScheduleAnyway",
		LabelSelector: &metav1.LabelSelector{MatchLabels: labels}}}
}

var testKind = schema.GroupKind{Group: "svc.example.org", Kind: "Svc"}

func testService(t *testing.T, funcs *interceptor.Funcs) Service {
	t.Helper()
	cats, err := extraconfig.LoadCatalogs(fstest.MapFS{"2025.2.json": {Data: []byte(
		`{"sections": {"DEFAULT": {"opts": ["debug", "log_dir"], "deprecated": {"logfile": "[DEFAULT] log_file"}}}}`)}}, "svc", 1)
	if err != nil {
		t.Fatal(err)
	}
	b := fake.NewClientBuilder().WithScheme(managerconfig.NewScheme()).
		WithObjects(&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "critical"}, Value: 1})
	if funcs != nil {
		b = b.WithInterceptorFuncs(*funcs)
	}
	owned := extraconfig.Registry{{Section: "auth", Key: "password", Owner: "spec.serviceUser", Impact: "leaks", Rejected: true}}
	return Service{Kind: testKind, Name: "svc", Owned: owned, Reader: b.Build(), Catalogs: cats}
}

// Exempt sections skip only the catalog; a change of the exempt set, the
// release or extraConfig re-checks the catalog on update.
func TestExtraConfigExemptionsAndUpdates(t *testing.T) {
	svc := testService(t, nil)
	extra := map[string]map[string]string{"plugin": {"anything": "1"}, "DEFAULT": {"log_dir": "/x"}}
	obj := func(exempt ...string) Object {
		s := valid()
		s.ExtraConfig = extra
		return Object{Name: "x", Spec: s, CatalogExempt: exempt}
	}
	if errs, _ := svc.extraConfig(obj("plugin"), nil); len(errs) != 0 {
		t.Errorf("exempt section checked: %v", errs)
	}
	if errs, _ := svc.extraConfig(obj(), nil); !slices.Equal(paths(errs), []string{"FieldValueInvalid spec.extraConfig[plugin]"}) {
		t.Errorf("unexempt section: %v", errs)
	}
	// Exempt from the catalog, not from the owned keys and CR/LF rules.
	bad := obj("auth")
	bad.Spec.ExtraConfig = map[string]map[string]string{"auth": {"password": "p", "k": "a\nb"}}
	if got := paths(first(svc.extraConfig(bad, nil))); !slices.Equal(got, []string{
		"FieldValueForbidden spec.extraConfig[auth][password]", "FieldValueInvalid spec.extraConfig[auth][k]"}) {
		t.Errorf("exempt section errors = %q", got)
	}
	prev := obj()
	for _, tc := range []struct {
		name    string
		mut     func(o *Object)
		recheck bool
	}{
		{"unrelated change", func(*Object) {}, false},
		{"exempt set changed", func(o *Object) { o.CatalogExempt = []string{"other"} }, true},
		{"extraConfig changed", func(o *Object) { o.Spec.ExtraConfig = map[string]map[string]string{"plugin": {"k": "2"}} }, true},
		{"release changed", func(o *Object) { o.Spec.OpenStackRelease = "2026.1" }, true},
	} {
		now := obj()
		now.Spec.Region = "changed"
		tc.mut(&now)
		errs, warnings := svc.extraConfig(now, &prev)
		// 2026.1 has no catalog here: a re-check shows as the warning.
		if rechecked := len(errs)+len(warnings) > 0; rechecked != tc.recheck {
			t.Errorf("%s: re-checked = %v (errors %v, warnings %q)", tc.name, rechecked, errs, warnings)
		}
	}
}

func first(errs field.ErrorList, _ []string) field.ErrorList { return errs }

func TestAdmitAggregatesAndLooksUp(t *testing.T) {
	svc := testService(t, nil)
	s := valid()
	s.Deployment.PriorityClassName = new("missing")
	s.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logfile": "/x", "bogus": "1"}}
	w, err := svc.Admit(context.Background(), Object{Name: "x", Spec: s}, nil,
		field.ErrorList{field.Invalid(field.NewPath("spec", "own"), 1, "own rule")}, []string{"own warning"})
	var se *apierrors.StatusError
	if !errors.As(err, &se) || !apierrors.IsInvalid(err) || se.Status().Details.Kind != "Svc" {
		t.Fatalf("err = %v, want one Invalid about Svc", err)
	}
	var got []string
	for _, c := range se.Status().Details.Causes {
		got = append(got, c.Field)
	}
	slices.Sort(got)
	if want := []string{"spec.deployment.priorityClassName", "spec.extraConfig[DEFAULT][bogus]", "spec.own"}; !slices.Equal(got, want) {
		t.Errorf("causes = %q, want %q", got, want)
	}
	if want := []string{"own warning", "[DEFAULT] logfile is deprecated, replaced by [DEFAULT] log_file"}; !slices.Equal(w, want) {
		t.Errorf("warnings = %q, want %q", w, want)
	}
	s.Deployment.PriorityClassName, s.ExtraConfig = new("critical"), nil
	if w, err := svc.Admit(context.Background(), Object{Name: "x", Spec: s}, nil, nil, nil); err != nil || len(w) != 0 {
		t.Errorf("valid object: %v %v", w, err)
	}
	broken := testService(t, &interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
		return errors.New("etcd unavailable")
	}})
	if _, err := broken.Admit(context.Background(), Object{Name: "x", Spec: s}, nil, nil, nil); !apierrors.IsInternalError(err) {
		t.Errorf("failed lookup: %v, want InternalError", err)
	}
}

// A terminating object's update is admitted unchecked; create, update and
// delete otherwise behave as documented.
func TestValidatorHook(t *testing.T) {
	var calls []string
	v := Validator[*schedulingv1.PriorityClass](func(_ context.Context, obj, old *schedulingv1.PriorityClass) (ctrladmission.Warnings, error) {
		calls = append(calls, obj.Name+" old="+strings.TrimSpace(nameOf(old)))
		return nil, errors.New("refused")
	})
	obj := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "new"}}
	old := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "old"}}
	if _, err := v.ValidateCreate(context.Background(), obj); err == nil {
		t.Error("create not checked")
	}
	if _, err := v.ValidateUpdate(context.Background(), old, obj); err == nil {
		t.Error("update not checked")
	}
	now := metav1.Now()
	obj.DeletionTimestamp = &now
	if w, err := v.ValidateUpdate(context.Background(), old, obj); err != nil || w != nil {
		t.Errorf("terminating update: %v %v", w, err)
	}
	if w, err := v.ValidateDelete(context.Background(), obj); err != nil || w != nil {
		t.Errorf("delete: %v %v", w, err)
	}
	if want := []string{"new old=", "new old=old"}; !slices.Equal(calls, want) {
		t.Errorf("calls = %q, want %q", calls, want)
	}
	var defaulted bool
	if err := Defaulter[*schedulingv1.PriorityClass](func(*schedulingv1.PriorityClass) { defaulted = true }).Default(context.Background(), obj); err != nil || !defaulted {
		t.Errorf("defaulter: %v, ran %v", err, defaulted)
	}
}

func nameOf(pc *schedulingv1.PriorityClass) string {
	if pc == nil {
		return ""
	}
	return pc.Name
}

// Whatever the user wrote, the answer's messages are ASCII; ASCII input
// passes through unchanged.
func TestAnswerIsASCII(t *testing.T) {
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec", "extraConfig").Key("\u00e9"), "\u00e9", "no such section \U0001f600"),
		field.Invalid(field.NewPath("spec", "extraConfig").Key("a\nb"), "a\nb", "must not contain CR or LF"),
	}
	w, err := Answer(testKind, "x", errs, []string{"warn \xff\u00e9"})
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		t.Fatal(err)
	}
	causes := se.Status().Details.Causes
	if causes[0].Field != `spec.extraConfig[\u00e9]` || causes[0].Message != `Invalid value: no such section \U0001f600` {
		t.Errorf("cause = %+v", causes[0])
	}
	if causes[1].Field != "spec.extraConfig[a\nb]" || causes[1].Message != `Invalid value: "a\nb": must not contain CR or LF` {
		t.Errorf("ASCII cause changed: %+v", causes[1])
	}
	if w[0] != `warn \xff\u00e9` {
		t.Errorf("warning = %q", w[0])
	}
	if errs[0].Field != "spec.extraConfig[\u00e9]" {
		t.Errorf("input errors changed: %v", errs[0])
	}
}
