package controller

import (
	"context"
	"errors"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

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
