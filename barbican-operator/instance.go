package barbican

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
)

// What a program that brings up a managed store's instance itself (the e2e
// and conformance suites, which play the OpenBao operator) must give it.

// InstanceGVK is the kind of a managed store's instance (OpenBaoCluster).
var InstanceGVK schema.GroupVersionKind = controller.InstanceGVK

// ProvisionerName is the ServiceAccount whose token the operator logs in
// to a managed instance with.
func ProvisionerName(instance string) string { return controller.ProvisionerName(instance) }

// InstanceCASecretName is the Secret holding a managed instance's CA.
func InstanceCASecretName(instance string) string { return controller.InstanceCASecretName(instance) }

// InstanceCRDDir holds the OpenBaoCluster CRD the tests load (relative to
// the repository root).
const InstanceCRDDir = "barbican-operator/internal/controller/testdata/crd"

// StoreCredsHash is the pod-template annotation digesting the default
// store's AppRole secret ID: a re-mint changes it and rolls the pods.
const StoreCredsHash = render.StoreCredsHash
