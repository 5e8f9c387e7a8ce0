package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// PlacementSpec is the desired state of an OpenStack Placement API.
type PlacementSpec struct {
	serviceapi.ServiceSpec `json:",inline"`
	// APIServer tunes uwsgi.
	// +optional
	APIServer *APIServerSpec `json:"apiServer,omitempty"`
}

// APIServerSpec tunes the API server process.
type APIServerSpec struct {
	// UWSGI tunes uwsgi.
	// +optional
	UWSGI *serviceapi.UWSGISpec `json:"uwsgi,omitempty"`
}

// PlacementStatus is the observed state of a Placement.
type PlacementStatus struct {
	serviceapi.ServiceStatus `json:",inline"`
}

// Placement runs the OpenStack Placement API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Release",type=string,JSONPath=`.status.installedRelease`
// +kubebuilder:printcolumn:name="Endpoint",type=string,JSONPath=`.status.endpoint`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Placement struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PlacementSpec   `json:"spec,omitempty"`
	Status PlacementStatus `json:"status,omitempty"`
}

// PlacementList lists Placements.
// +kubebuilder:object:root=true
type PlacementList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Placement `json:"items"`
}
