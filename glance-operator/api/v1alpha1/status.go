package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// ServiceSpec gives the shared steps the fields every service CR has.
func (g *Glance) ServiceSpec() *serviceapi.ServiceSpec { return &g.Spec.ServiceSpec }

// ServiceStatus gives the status skeleton the status every service CR has.
func (g *Glance) ServiceStatus() *serviceapi.ServiceStatus { return &g.Status.ServiceStatus }

// StatusSnapshot returns a deep copy of the status for change detection.
func (g *Glance) StatusSnapshot() any { return *g.Status.DeepCopy() }

// ChildConditions gives the shared aggregation a backend's conditions.
func (b *GlanceBackend) ChildConditions() []metav1.Condition { return b.Status.Conditions }
