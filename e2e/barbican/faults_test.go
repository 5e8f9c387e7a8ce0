package barbican_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/faults"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// The fault scenarios of every operator (e2e/faults) on a Barbican.
func TestFaults(t *testing.T) {
	faults.Run(t, faults.Subject[barbicanv1.Barbican, *barbicanv1.Barbican]{
		Env:        &env,
		Site:       func(t *testing.T) *suite.Site { return newSite(t, "2026.1").Site },
		Conditions: func(b *barbicanv1.Barbican) []metav1.Condition { return b.Status.Conditions },
		New: func(ns, name string) *barbicanv1.Barbican {
			in := &suite.Site{NS: ns, Schema: name, Service: "barbican"}
			return &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
				Spec: barbicanv1.BarbicanSpec{ServiceSpec: in.Spec("2026.1", "", env.DB.Port)}}
		},
		Change: func(b *barbicanv1.Barbican) { b.Spec.Deployment.Replicas++ },
		// spec.logging is not rendered for Barbican: a catalog option is.
		Reconfigure: func(b *barbicanv1.Barbican) {
			limit := "20001"
			if b.Spec.ExtraConfig["DEFAULT"]["max_allowed_secret_in_bytes"] == limit {
				limit = "20002"
			}
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"max_allowed_secret_in_bytes": limit}}
		},
	})
}
