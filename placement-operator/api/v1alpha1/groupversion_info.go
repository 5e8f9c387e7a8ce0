// Package v1alpha1 holds the Placement API, group placement.openstack.c5c3.io.
// +kubebuilder:object:generate=true
// +groupName=placement.openstack.c5c3.io
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the API group and version of Placement.
	GroupVersion = schema.GroupVersion{Group: "placement.openstack.c5c3.io", Version: "v1alpha1"}
	// SchemeBuilder registers the Placement kinds.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the Placement kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Placement{}, &PlacementList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
