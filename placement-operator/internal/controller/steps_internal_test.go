package controller

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

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/targetcluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// failingMapper stands in for a target cluster whose discovery fails: no real
// API server answers RESTMapping with an error other than NoMatch on demand.
type failingMapper struct{ meta.RESTMapper }

func (failingMapper) RESTMapping(schema.GroupKind, ...string) (*meta.RESTMapping, error) {
	return nil, errors.New("discovery: connection refused")
}

func TestHTTPRouteCapabilityProbeFailed_FakeMapper(t *testing.T) {
	p := &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Generation: 4}}
	p.Spec.Gateway = &shared.GatewaySpec{Hostname: "h", ParentRef: shared.GatewayParentRef{Name: "gw"}}
	s := &scope{placement: p, target: targetcluster.Target{Name: "remote", Mapper: failingMapper{}}}
	out, err := (&PlacementReconciler{}).reconcileHTTPRoute(context.Background(), s)
	if err != nil {
		t.Fatalf("error %v, want a condition", err)
	}
	c := meta.FindStatusCondition(p.Status.Conditions, placementv1.ConditionHTTPRouteReady)
	if c == nil || c.Reason != "CapabilityProbeFailed" || c.Status != metav1.ConditionFalse || c.ObservedGeneration != 4 {
		t.Fatalf("condition = %+v", c)
	}
	if out.RequeueAfter != requeueDeployment {
		t.Errorf("requeue %v, want %v", out.RequeueAfter, requeueDeployment)
	}
}

// A read error on a target cluster is recorded on SecretsReady and returned.
func TestSecretsReadErrorOnTargetRecorded_FakeClient(t *testing.T) {
	p := &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Generation: 2}}
	failing := fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return errors.New(`unable to get: ns/x because of unknown namespace for the cache`)
		}}).Build()
	s := &scope{placement: p, target: targetcluster.Target{Name: "remote", Client: failing, Reader: failing}}
	if _, err := (&PlacementReconciler{}).reconcileSecrets(context.Background(), s); err == nil {
		t.Fatal("read error swallowed")
	}
	c := meta.FindStatusCondition(p.Status.Conditions, placementv1.ConditionSecretsReady)
	if c == nil || c.Reason != "TargetClusterUnavailable" || !strings.Contains(c.Message, "unknown namespace") {
		t.Fatalf("SecretsReady = %+v", c)
	}
}

// The in-cluster URL (probe and status.endpoint) ends in the configured
// cluster domain, cluster.local when none is set.
func TestInClusterURLUsesClusterDomain(t *testing.T) {
	p := &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Name: "placement", Namespace: "openstack"}}
	for domain, want := range map[string]string{
		"":             "http://placement.openstack.svc.cluster.local:8778/",
		"corp.example": "http://placement.openstack.svc.corp.example:8778/",
	} {
		r := &PlacementReconciler{ClusterDomain: domain}
		if got, _ := r.probeTarget(&scope{placement: p}); got != want {
			t.Errorf("domain %q: probe URL %q, want %q", domain, got, want)
		}
		if got := r.endpoint(p); got != want {
			t.Errorf("domain %q: endpoint %q, want %q", domain, got, want)
		}
	}
}
