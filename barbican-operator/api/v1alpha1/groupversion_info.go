// Package v1alpha1 holds the Barbican API, group barbican.openstack.c5c3.io:
// Barbican (the key manager) and BarbicanSecretStore (one secret store
// attached to it).
// +kubebuilder:object:generate=true
// +groupName=barbican.openstack.c5c3.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// GroupVersion is the API group and version of Barbican.
var GroupVersion = schema.GroupVersion{Group: "barbican.openstack.c5c3.io", Version: "v1alpha1"}

// AddToScheme adds the Barbican kinds to a scheme.
var AddToScheme = serviceapi.AddKnownTypes(GroupVersion, &Barbican{}, &BarbicanList{}, &BarbicanSecretStore{}, &BarbicanSecretStoreList{})
