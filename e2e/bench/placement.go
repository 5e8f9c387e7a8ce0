package bench

import (
	"context"
	"fmt"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/inprocess"
)

// The Placement inputs, one set per namespace, as the sample expects them.
const (
	placementDBSecret   = "placement-db"
	placementUserSecret = "placement-service-user"
	placementMariaDB    = "mariadb"
	clustersNamespace   = "c5c3-clusters"
)

var esoClusterStore = schema.GroupVersionKind{Group: "external-secrets.io", Version: "v1", Kind: "ClusterSecretStore"}

func init() { Operators["placement"] = placementOperator() }

func placementOperator() *Operator {
	gvk := func(gv schema.GroupVersion, kind string) schema.GroupVersionKind { return gv.WithKind(kind) }
	return &Operator{
		Name:          "placement",
		GVK:           placementv1.GroupVersion.WithKind("Placement"),
		Resource:      "placements",
		Controller:    "placement",
		MetricsPrefix: inprocess.MetricsPrefix,
		CRDPaths:      []string{"placement-operator/config/crd"},
		NewScheme:     func() *runtime.Scheme { return operator.NewScheme(placementv1.AddToScheme) },
		NewManager:    newPlacementManager,
		Prepare:       preparePlacement,
		Inputs:        placementInputs,
		InputsReady:   placementInputsReady,
		NewCR:         newPlacement,
		Rotate: func(ctx context.Context, c client.Client, ns, _ string, round int) error {
			return updateSecret(ctx, c, ns, placementUserSecret, map[string]string{"password": fmt.Sprintf("rotated-%d", round)})
		},
		Deployment: func(ns, name string) client.ObjectKey { return client.ObjectKey{Namespace: ns, Name: name} },
		Kinds: []schema.GroupVersionKind{
			placementv1.GroupVersion.WithKind("Placement"),
			gvk(appsv1.SchemeGroupVersion, "Deployment"),
			gvk(corev1.SchemeGroupVersion, "Service"),
			gvk(corev1.SchemeGroupVersion, "ConfigMap"),
			gvk(corev1.SchemeGroupVersion, "Secret"),
			gvk(batchv1.SchemeGroupVersion, "Job"),
			gvk(policyv1.SchemeGroupVersion, "PodDisruptionBudget"),
			gvk(autoscalingv2.SchemeGroupVersion, "HorizontalPodAutoscaler"),
			gvk(networkingv1.SchemeGroupVersion, "NetworkPolicy"),
			gvk(mariadbv1alpha1.GroupVersion, "MariaDB"),
			gvk(mariadbv1alpha1.GroupVersion, "Database"),
			gvk(mariadbv1alpha1.GroupVersion, "User"),
			gvk(mariadbv1alpha1.GroupVersion, "Grant"),
		},
	}
}

// newPlacementManager builds the operator's own manager with the binary's
// defaults, except: no metrics or health listeners (the harness reads the
// registry), no webhooks (the harness applies the defaults itself), and the
// health probe sent to the harness's stand-in.
func newPlacementManager(ctx context.Context, cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error) {
	opts := &inprocess.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: o.SyncPeriod,
		ClustersNamespace: clustersNamespace, MaxConcurrentReconciles: 2,
		OperatorNamespace: "placement-system", AbandonGrace: 5 * time.Minute,
	}
	opts.ProbeURL = func(client.Object, string) string { return o.ProbeURL }
	return inprocess.New(ctx, cfg, opts)
}

// preparePlacement creates the target-cluster namespace and the default
// ClusterSecretStore; the ESO stand-in marks it Ready.
func preparePlacement(ctx context.Context, c client.Client) error {
	if err := createIfMissing(ctx, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: clustersNamespace}}); err != nil {
		return err
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(esoClusterStore)
	store.SetName(shared.DefaultSecretStoreName)
	store.Object["spec"] = map[string]any{"provider": map[string]any{"fake": map[string]any{"data": []any{}}}}
	return createIfMissing(ctx, c, store)
}

// placementInputs creates both credential Secrets and the MariaDB.
func placementInputs(ctx context.Context, c client.Client, ns string) error {
	for _, s := range []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: placementDBSecret}, StringData: map[string]string{"username": "placement", "password": "db-secret"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: placementUserSecret}, StringData: map[string]string{"password": "ks-secret"}},
	} {
		if err := createIfMissing(ctx, c, s); err != nil {
			return err
		}
	}
	m := &mariadbv1alpha1.MariaDB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: placementMariaDB}}
	m.Spec.Storage = mariadbv1alpha1.Storage{Size: ptr.To(resource.MustParse("1Gi"))}
	return createIfMissing(ctx, c, m)
}

func placementInputsReady(ctx context.Context, c client.Client, ns string) (bool, error) {
	var m mariadbv1alpha1.MariaDB
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: placementMariaDB}, &m); err != nil {
		return false, err
	}
	if !meta.IsStatusConditionTrue(m.Status.Conditions, "Ready") {
		return false, nil
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(esoClusterStore)
	if err := c.Get(ctx, client.ObjectKey{Name: shared.DefaultSecretStoreName}, store); err != nil {
		return false, err
	}
	return conditionTrue(store, "Ready"), nil
}

// newPlacement is the sample's minimal Placement on a managed MariaDB with
// the defaults of the mutating webhook.
func newPlacement(ns, name string) client.Object {
	p := &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: placementv1.PlacementSpec{ServiceSpec: shared.ServiceSpec{
			OpenStackRelease: "2025.2",
			Image:            shared.ImageSpec{Repository: "registry.example.org/openstack/placement", Tag: "2025.2"},
			Database: shared.DatabaseSpec{
				ClusterRef: &shared.LocalObjectRef{Name: placementMariaDB},
				Database:   "placement",
				SecretRef:  shared.SecretKeyRef{Name: placementDBSecret},
			},
			Cache:            shared.CacheSpec{Servers: []string{"memcached." + ns + ".svc:11211"}},
			KeystoneEndpoint: "http://keystone-api.openstack.svc:5000/v3",
			ServiceUser:      shared.ServiceUserSpec{SecretRef: shared.SecretKeyRef{Name: placementUserSecret}},
		}},
	}
	inprocess.Default(p)
	return p
}
