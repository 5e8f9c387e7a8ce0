package placement_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/e2e/faults"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Every fault scenario (e2e/faults) on a Placement: its chart's, and the
// shared mechanism's for all three operators.
func TestFaults(t *testing.T) {
	faults.Run(t, faults.Subject[placementv1.Placement, *placementv1.Placement]{
		Env:        &env,
		Site:       func(t *testing.T) *suite.Site { return newSite(t, env.K8s, "2026.1", nil).in },
		Conditions: func(p *placementv1.Placement) []metav1.Condition { return p.Status.Conditions },
		New: func(ns, name string) *placementv1.Placement {
			return newPlacement(&site{ns: ns, name: name, schema: name}, "2026.1")
		},
		Change:      func(p *placementv1.Placement) { p.Spec.Deployment.Replicas++ },
		Reconfigure: faults.ToggleDebug[*placementv1.Placement],
	})
}
