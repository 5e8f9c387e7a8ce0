package glance_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/e2e/faults"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// The fault scenarios of the Glance chart (e2e/faults: the webhook down,
// the namespace-scoped RBAC); the shared mechanism's run on a Placement.
func TestFaults(t *testing.T) {
	faults.RunChart(t, faults.Subject[glancev1.Glance, *glancev1.Glance]{
		Env:        &env,
		Site:       func(t *testing.T) *suite.Site { return newSite(t, "2026.1").Site },
		Conditions: func(g *glancev1.Glance) []metav1.Condition { return g.Status.Conditions },
		New: func(ns, name string) *glancev1.Glance {
			in := &suite.Site{NS: ns, Schema: name, Service: "glance"}
			return &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: glancev1.GlanceSpec{ServiceSpec: in.Spec("2026.1", "", env.DB.Port)}}
		},
		Change: func(g *glancev1.Glance) { g.Spec.Deployment.Replicas++ },
	})
}
