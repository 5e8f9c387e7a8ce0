package bench

import (
	"context"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
)

var barbicanService = service{name: "barbican", release: "2025.2"}

// Each Barbican keeps its secrets in one default brownfield store on the
// OpenBao stand-in of the harness process (one for every control plane of
// the run), with the store's AppRole pair and CA in two Secrets.
const (
	barbicanStore   = "vault"
	barbicanAppRole = "bao-approle"
	barbicanStoreCA = "bao-ca"
)

func init() { Operators["barbican"] = barbicanOperator() }

func barbicanOperator() *Operator {
	bao := sync.OnceValue(startOpenBaoStandIn)
	return barbicanService.profile(&Operator{
		GVK:           barbicanv1.GroupVersion.WithKind("Barbican"),
		MetricsPrefix: barbican.Operator.MetricsPrefix(),
		NewScheme:     func() *runtime.Scheme { return managerconfig.NewScheme(barbicanv1.AddToScheme) },
		Inputs: func(ctx context.Context, c client.Client, ns string) error {
			return barbicanInputs(ctx, c, ns, bao())
		},
		NewCR: newBarbican,
		Kinds: kinds(barbicanv1.GroupVersion.WithKind("Barbican"), barbicanv1.GroupVersion.WithKind("BarbicanSecretStore"),
			batchv1.SchemeGroupVersion.WithKind("CronJob")),
	}, barbican.Operator.NewManager)
}

// barbicanInputs are the shared inputs, the store's two Secrets and the
// default store of the Barbican the namespace will hold (the harness names
// each CR after its operator).
func barbicanInputs(ctx context.Context, c client.Client, ns string, bao *openBaoStandIn) error {
	if err := barbicanService.inputs(ctx, c, ns); err != nil {
		return err
	}
	for _, sec := range []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: barbicanAppRole},
			StringData: map[string]string{barbicanv1.KeyRoleID: bao.roleID, barbicanv1.KeySecretID: bao.secretID}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: barbicanStoreCA},
			Data: map[string][]byte{barbicanv1.KeyCACert: bao.caPEM}},
	} {
		if err := createIfMissing(ctx, c, sec); err != nil {
			return err
		}
	}
	return createIfMissing(ctx, c, &barbicanv1.BarbicanSecretStore{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: barbicanStore},
		Spec: barbicanv1.BarbicanSecretStoreSpec{
			BarbicanRef: barbicanv1.BarbicanRef{Name: barbicanService.name}, Type: barbicanv1.StoreOpenBao, IsDefault: true,
			OpenBao: &barbicanv1.OpenBaoSpec{Server: &barbicanv1.OpenBaoServer{URL: bao.URL(),
				CredentialsSecretRef: barbicanv1.SecretRef{Name: barbicanAppRole},
				CABundleSecretRef:    &barbicanv1.SecretRef{Name: barbicanStoreCA}}},
		},
	})
}

// newBarbican is the sample's minimal Barbican with the defaults of the
// mutating webhook.
func newBarbican(ns, name string) client.Object {
	b := &barbicanv1.Barbican{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       barbicanv1.BarbicanSpec{ServiceSpec: barbicanService.spec(ns)},
	}
	barbican.Default(b)
	return b
}
