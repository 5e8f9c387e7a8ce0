// Package v1alpha1 holds the Glance API, group glance.openstack.c5c3.io:
// Glance (the image service) and GlanceBackend (one image store attached to it).
// +kubebuilder:object:generate=true
// +groupName=glance.openstack.c5c3.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// GroupVersion is the API group and version of Glance.
var GroupVersion = schema.GroupVersion{Group: "glance.openstack.c5c3.io", Version: "v1alpha1"}

// AddToScheme adds the Glance kinds to a scheme.
var AddToScheme = serviceapi.AddKnownTypes(GroupVersion, &Glance{}, &GlanceList{}, &GlanceBackend{}, &GlanceBackendList{})
