package v1alpha1

import "github.com/c5c3/openstack-operators/common/api/serviceapi"

// ServiceSpec gives the shared steps the fields every service CR has.
func (p *Placement) ServiceSpec() *serviceapi.ServiceSpec { return &p.Spec.ServiceSpec }

// ServiceStatus gives the status skeleton the status every service CR has.
func (p *Placement) ServiceStatus() *serviceapi.ServiceStatus { return &p.Status.ServiceStatus }

// StatusSnapshot returns a deep copy of the status for change detection.
func (p *Placement) StatusSnapshot() any { return *p.Status.DeepCopy() }
