package service

import (
	"context"
	"errors"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

var profile = Profile{Kind: "Placement", Service: "placement", ManagedBy: "placement-operator", APIPort: 8778, ProbePath: "/", APICondition: "PlacementAPIReady"}

func cr(generation int64) *testenv.CR {
	return &testenv.CR{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: "openstack", Generation: generation}}
}

// failingMapper stands in for a target cluster whose discovery fails: no real
// API server answers RESTMapping with an error other than NoMatch on demand.
type failingMapper struct{ meta.RESTMapper }

func (failingMapper) RESTMapping(schema.GroupKind, ...string) (*meta.RESTMapping, error) {
	return nil, errors.New("discovery: connection refused")
}

func TestHTTPRouteCapabilityProbeFailed_FakeMapper(t *testing.T) {
	p := cr(4)
	p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "h", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	s := NewScope(profile, nil, p, targetcluster.Target{Name: "remote", Mapper: failingMapper{}})
	out, err := (&Reconciler{Profile: profile}).HTTPRoute(context.Background(), &s)
	if err != nil {
		t.Fatalf("error %v, want a condition", err)
	}
	c := meta.FindStatusCondition(p.Status.Conditions, conditions.TypeHTTPRouteReady)
	if c == nil || c.Reason != "CapabilityProbeFailed" || c.Status != metav1.ConditionFalse || c.ObservedGeneration != 4 {
		t.Fatalf("condition = %+v", c)
	}
	if out.RequeueAfter != RequeueRouteAcceptance {
		t.Errorf("requeue %v, want %v", out.RequeueAfter, RequeueRouteAcceptance)
	}
}

// A read error on a target cluster is recorded on SecretsReady and returned.
func TestSecretsReadErrorOnTargetRecorded_FakeClient(t *testing.T) {
	p := cr(2)
	failing := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return errors.New(`unable to get: ns/x because of unknown namespace for the cache`)
		}}).Build()
	s := NewScope(profile, nil, p, targetcluster.Target{Name: "remote", Client: failing, Reader: failing})
	if _, err := (&Reconciler{Profile: profile}).Secrets(context.Background(), &s); err == nil {
		t.Fatal("read error swallowed")
	}
	c := meta.FindStatusCondition(p.Status.Conditions, conditions.TypeSecretsReady)
	if c == nil || c.Reason != "TargetClusterUnavailable" || !strings.Contains(c.Message, "unknown namespace") || c.ObservedGeneration != 2 {
		t.Fatalf("SecretsReady = %+v", c)
	}
}

// The in-cluster URL (probe and status.endpoint) ends in the configured
// cluster domain, cluster.local when none is set; the probe path of the
// profile follows it.
func TestInClusterURLUsesClusterDomain(t *testing.T) {
	for _, tc := range []struct {
		domain, probePath, wantEndpoint, wantProbe string
	}{
		{"", "/", "http://placement.openstack.svc.cluster.local:8778/", "http://placement.openstack.svc.cluster.local:8778/"},
		{"corp.example", "/", "http://placement.openstack.svc.corp.example:8778/", "http://placement.openstack.svc.corp.example:8778/"},
		{"", "/healthcheck", "http://placement.openstack.svc.cluster.local:8778/", "http://placement.openstack.svc.cluster.local:8778/healthcheck"},
	} {
		pr := profile
		pr.ProbePath = tc.probePath
		r := &Reconciler{ClusterDomain: tc.domain, Profile: pr}
		s := NewScope(pr, nil, cr(1), targetcluster.Target{})
		if got, _ := r.probeTarget(&s); got != tc.wantProbe {
			t.Errorf("domain %q path %q: probe URL %q, want %q", tc.domain, tc.probePath, got, tc.wantProbe)
		}
		if got := r.Endpoint(s.CR); got != tc.wantEndpoint {
			t.Errorf("domain %q: endpoint %q, want %q", tc.domain, got, tc.wantEndpoint)
		}
	}
}

// status.endpoint ends in a slash (Placement, Glance) unless the profile asks
// for a bare one (Barbican, where it equals host_href), with or without a
// gateway.
func TestEndpointSlashFollowsTheProfile(t *testing.T) {
	gw := cr(1)
	gw.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "api.example.org"}
	for _, tc := range []struct {
		bare bool
		obj  Object
		want string
	}{
		{false, cr(1), "http://placement.openstack.svc.cluster.local:8778/"},
		{true, cr(1), "http://placement.openstack.svc.cluster.local:8778"},
		{false, gw, "https://api.example.org/"},
		{true, gw, "https://api.example.org"},
	} {
		pr := profile
		pr.BareEndpoint = tc.bare
		if got := (&Reconciler{Profile: pr}).Endpoint(tc.obj); got != tc.want {
			t.Errorf("bare=%v: endpoint %q, want %q", tc.bare, got, tc.want)
		}
	}
}

// A mapped probe URL (services/proxy, a test's stand-in) keeps the probe path.
func TestProbeURLMappingKeepsThePath(t *testing.T) {
	pr := profile
	pr.ProbePath = "/healthcheck"
	r := &Reconciler{Profile: pr, ProbeURL: func(client.Object, string) string { return "http://127.0.0.1:9/" }}
	s := NewScope(pr, nil, cr(1), targetcluster.Target{})
	if got, _ := r.probeTarget(&s); got != "http://127.0.0.1:9/healthcheck" {
		t.Errorf("probe URL %q", got)
	}
}

// A parallel member works on a deep copy: its conditions do not reach the
// original until the group merges them.
func TestRebindPointsAtTheCopy(t *testing.T) {
	p := cr(3)
	s := NewScope(profile, nil, p, targetcluster.Target{})
	c := s
	cp := p.DeepCopyObject().(*testenv.CR)
	c.Rebind(cp)
	c.SetTrue(conditions.TypeHPAReady, conditions.ReasonHPAReady, "x")
	if len(p.Status.Conditions) != 0 {
		t.Errorf("original changed: %+v", p.Status.Conditions)
	}
	if !c.IsTrue(conditions.TypeHPAReady) || c.Owner.Object != client.Object(cp) {
		t.Errorf("copy not bound: conditions %+v", cp.Status.Conditions)
	}
}

// A DSN Secret that cannot be written reports through SecretsReady, the
// condition of its step-table row, as a config failure.
func TestDBConnectionSecretFailureSetsSecretsReady_FakeClient(t *testing.T) {
	p := cr(5)
	p.Spec.Database = serviceapi.DatabaseSpec{Host: "db", Database: "placement"}
	failing := fake.NewClientBuilder().WithScheme(testenv.CRScheme(schema.GroupVersion{Group: "t", Version: "v1"})).
		WithInterceptorFuncs(interceptor.Funcs{
			Create: func(context.Context, client.WithWatch, client.Object, ...client.CreateOption) error {
				return errors.New("admission webhook denied the request")
			}}).Build()
	s := NewScope(profile, nil, p, targetcluster.Target{Name: "remote", Client: failing, Reader: failing})
	if _, err := (&Reconciler{Profile: profile}).DBConnectionSecret(context.Background(), &s); err == nil {
		t.Fatal("write error swallowed")
	}
	c := meta.FindStatusCondition(p.Status.Conditions, conditions.TypeSecretsReady)
	if c == nil || c.Reason != conditions.ReasonConfigError || !strings.Contains(c.Message, "denied") || c.ObservedGeneration != 5 {
		t.Fatalf("SecretsReady = %+v", c)
	}
}

// A pass that moved installedRelease from an earlier release asks for the
// next pass at once (or keeps a sooner requeue); a first install and a pass
// that kept the release keep their outcome.
func TestAfterPromotion(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		out, want      pipeline.Outcome
	}{
		{"first install", "", "2025.2", pipeline.Continue(), pipeline.Continue()},
		{"release kept", "2025.2", "2025.2", pipeline.RequeueAfter(RequeueDatabase), pipeline.RequeueAfter(RequeueDatabase)},
		{"promoted", "2025.2", "2026.1", pipeline.Continue(), pipeline.RequeueAfter(RequeuePromoted)},
		{"promoted, later requeue", "2025.2", "2026.1", pipeline.RequeueAfter(RequeueRollout), pipeline.RequeueAfter(RequeuePromoted)},
		{"promoted, sooner requeue", "2025.2", "2026.1", pipeline.RequeueAfter(RequeuePromoted / 2), pipeline.RequeueAfter(RequeuePromoted / 2)},
	} {
		if got := afterPromotion(c.from, c.to, c.out); got.RequeueAfter != c.want.RequeueAfter {
			t.Errorf("%s: requeue after %v, want %v", c.name, got.RequeueAfter, c.want.RequeueAfter)
		}
	}
}
