package bench

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	placement "github.com/c5c3/openstack-operators/placement-operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

var placementService = service{name: "placement", release: "2025.2"}

func init() { Operators["placement"] = placementOperator() }

func placementOperator() *Operator {
	return placementService.profile(&Operator{
		GVK:           placementv1.GroupVersion.WithKind("Placement"),
		MetricsPrefix: placement.Operator.MetricsPrefix(),
		NewScheme:     func() *runtime.Scheme { return managerconfig.NewScheme(placementv1.AddToScheme) },
		NewCR:         newPlacement,
		Kinds:         kinds(placementv1.GroupVersion.WithKind("Placement")),
	}, placement.Operator.NewManager)
}

// newPlacement is the sample's minimal Placement with the defaults of the
// mutating webhook.
func newPlacement(ns, name string) client.Object {
	p := &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       placementv1.PlacementSpec{ServiceSpec: placementService.spec(ns)},
	}
	placement.Default(p)
	return p
}
