package bench

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/inprocess"
)

var placementService = service{name: "placement", release: "2025.2"}

func init() { Operators["placement"] = placementOperator() }

func placementOperator() *Operator {
	return &Operator{
		Name:          "placement",
		GVK:           placementv1.GroupVersion.WithKind("Placement"),
		Resource:      "placements",
		Controller:    "placement",
		MetricsPrefix: inprocess.MetricsPrefix,
		CRDPaths:      []string{"placement-operator/config/crd"},
		NewScheme:     func() *runtime.Scheme { return operator.NewScheme(placementv1.AddToScheme) },
		NewManager: func(ctx context.Context, cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error) {
			return inprocess.New(ctx, cfg, placementService.managerOptions(o))
		},
		Prepare:     prepare,
		Inputs:      placementService.inputs,
		InputsReady: inputsReady,
		NewCR:       newPlacement,
		Rotate:      placementService.rotate,
		Deployment:  deployment,
		Kinds:       kinds(placementv1.GroupVersion.WithKind("Placement")),
	}
}

// newPlacement is the sample's minimal Placement with the defaults of the
// mutating webhook.
func newPlacement(ns, name string) client.Object {
	p := &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       placementv1.PlacementSpec{ServiceSpec: placementService.spec(ns)},
	}
	inprocess.Default(p)
	return p
}
