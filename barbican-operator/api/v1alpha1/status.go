package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// ServiceSpec gives the shared steps the fields every service CR has.
func (b *Barbican) ServiceSpec() *serviceapi.ServiceSpec { return &b.Spec.ServiceSpec }

// ServiceStatus gives the status skeleton the status every service CR has.
func (b *Barbican) ServiceStatus() *serviceapi.ServiceStatus { return &b.Status.ServiceStatus }

// StatusSnapshot returns a deep copy of the status for change detection.
func (b *Barbican) StatusSnapshot() any { return *b.Status.DeepCopy() }

// ChildConditions gives the shared aggregation a store's conditions.
func (s *BarbicanSecretStore) ChildConditions() []metav1.Condition { return s.Status.Conditions }
