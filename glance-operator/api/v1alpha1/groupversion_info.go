// Package v1alpha1 holds the Glance API, group glance.openstack.c5c3.io:
// Glance (the image service) and GlanceBackend (one image store attached to it).
// +kubebuilder:object:generate=true
// +groupName=glance.openstack.c5c3.io
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the API group and version of Glance.
	GroupVersion = schema.GroupVersion{Group: "glance.openstack.c5c3.io", Version: "v1alpha1"}
	// SchemeBuilder registers the Glance kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the Glance kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Glance{}, &GlanceList{}, &GlanceBackend{}, &GlanceBackendList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
