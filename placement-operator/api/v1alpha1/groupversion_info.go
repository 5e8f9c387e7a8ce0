// Package v1alpha1 holds the Placement API, group placement.openstack.c5c3.io.
// +kubebuilder:object:generate=true
// +groupName=placement.openstack.c5c3.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// GroupVersion is the API group and version of Placement.
var GroupVersion = schema.GroupVersion{Group: "placement.openstack.c5c3.io", Version: "v1alpha1"}

// AddToScheme adds the Placement kinds to a scheme.
var AddToScheme = serviceapi.AddKnownTypes(GroupVersion, &Placement{}, &PlacementList{})
