// Package apply writes children idempotently: create when missing, update
// when the desired object's digest changed or a field the operator sets
// drifted by hand, never adopt a foreign object.
package apply

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// Owner stamps and recognises the children of one CR: a controller owner
// reference on the management cluster, ownership labels on a remote one.
type Owner struct {
	Object client.Object
	Kind   string
	Scheme *runtime.Scheme
	Remote bool
}

// Stamp marks child as owned.
func (o Owner) Stamp(child client.Object) error {
	if o.Remote {
		labels := child.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		for k, v := range targetcluster.OwnerLabels(o.Kind, o.Object.GetName(), o.Object.GetNamespace()) {
			labels[k] = v
		}
		child.SetLabels(labels)
		return nil
	}
	if err := controllerutil.SetControllerReference(o.Object, child, o.Scheme); err != nil {
		return fmt.Errorf("setting owner of %s: %w", child.GetName(), err)
	}
	return nil
}

// Owns reports whether child belongs to this owner.
func (o Owner) Owns(child metav1.Object) bool {
	if ref := metav1.GetControllerOf(child); ref != nil && ref.UID == o.Object.GetUID() {
		return true
	}
	l := child.GetLabels()
	return l[targetcluster.LabelOwnerKind] == o.Kind &&
		l[targetcluster.LabelOwnerName] == o.Object.GetName() &&
		l[targetcluster.LabelOwnerNamespace] == o.Object.GetNamespace()
}
