// Package v1alpha1 holds the Placement API, group placement.openstack.c5c3.io.
// +kubebuilder:object:generate=true
// +groupName=placement.openstack.c5c3.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the API group and version of Placement.
	GroupVersion = schema.GroupVersion{Group: "placement.openstack.c5c3.io", Version: "v1alpha1"}
	// SchemeBuilder registers the Placement kinds.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}
	// AddToScheme adds the Placement kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
