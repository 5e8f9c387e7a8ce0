package bench

import (
	"context"
	"fmt"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
)

// Every operator's CR embeds serviceapi.ServiceSpec: its inputs are a DB
// credential Secret, a service-user Secret and a MariaDB per namespace,
// the default ClusterSecretStore once per control plane.
const (
	benchMariaDB      = "mariadb"
	clustersNamespace = "c5c3-clusters"
)

var esoClusterStore = schema.GroupVersionKind{Group: "external-secrets.io", Version: "v1", Kind: "ClusterSecretStore"}

// service is what tells the shared inputs of one service apart.
type service struct {
	// name of the service: placement, glance, barbican.
	name string
	// release the CRs run.
	release string
}

func (s service) dbSecret() string   { return s.name + "-db" }
func (s service) userSecret() string { return s.name + "-service-user" }

// managerOptions are the binary's defaults but: no metrics or health
// listeners (the harness reads the registry), no webhooks (the harness
// applies the defaults itself), the health probe sent to the stand-in.
func (s service) managerOptions(o ManagerOptions) *bootstrap.Options {
	opts := &bootstrap.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: o.SyncPeriod,
		ClustersNamespace: clustersNamespace, MaxConcurrentReconciles: 2,
		OperatorNamespace: s.name + "-system", AbandonGrace: 5 * time.Minute,
	}
	opts.ProbeURL = func(client.Object, string) string { return o.ProbeURL }
	return opts
}

// profile fills in op what every service operator shares: names after the
// service, the shared inputs unless op has its own, the manager from newManager
// with managerOptions, the rotation and the Deployment.
func (s service) profile(op *Operator, newManager func(context.Context, *rest.Config, *bootstrap.Options) (ctrl.Manager, error)) *Operator {
	op.Name, op.Controller, op.Resource = s.name, s.name, s.name+"s"
	op.CRDPaths = []string{s.name + "-operator/config/crd"}
	op.NewManager = func(ctx context.Context, cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error) {
		return newManager(ctx, cfg, s.managerOptions(o))
	}
	op.Prepare, op.InputsReady, op.Rotate, op.Deployment = prepare, inputsReady, s.rotate, deployment
	if op.Inputs == nil {
		op.Inputs = s.inputs
	}
	return op
}

// prepare creates the target-cluster namespace and the default
// ClusterSecretStore; the ESO stand-in marks it Ready.
func prepare(ctx context.Context, c client.Client) error {
	if err := createIfMissing(ctx, c, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: clustersNamespace}}); err != nil {
		return err
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(esoClusterStore)
	store.SetName(serviceapi.DefaultSecretStoreName)
	store.Object["spec"] = map[string]any{"provider": map[string]any{"fake": map[string]any{"data": []any{}}}}
	return createIfMissing(ctx, c, store)
}

// inputs creates both credential Secrets and the MariaDB.
func (s service) inputs(ctx context.Context, c client.Client, ns string) error {
	for _, sec := range []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: s.dbSecret()}, StringData: map[string]string{"username": s.name, "password": "db-secret"}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: s.userSecret()}, StringData: map[string]string{"password": "ks-secret"}},
	} {
		if err := createIfMissing(ctx, c, sec); err != nil {
			return err
		}
	}
	m := &mariadbv1alpha1.MariaDB{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: benchMariaDB}}
	m.Spec.Storage = mariadbv1alpha1.Storage{Size: ptr.To(resource.MustParse("1Gi"))}
	return createIfMissing(ctx, c, m)
}

// inputsReady reports whether the stand-ins marked the MariaDB and the store Ready.
func inputsReady(ctx context.Context, c client.Client, ns string) (bool, error) {
	var m mariadbv1alpha1.MariaDB
	if err := c.Get(ctx, client.ObjectKey{Namespace: ns, Name: benchMariaDB}, &m); err != nil {
		return false, err
	}
	if !meta.IsStatusConditionTrue(m.Status.Conditions, "Ready") {
		return false, nil
	}
	store := &unstructured.Unstructured{}
	store.SetGroupVersionKind(esoClusterStore)
	if err := c.Get(ctx, client.ObjectKey{Name: serviceapi.DefaultSecretStoreName}, store); err != nil {
		return false, err
	}
	return conditionTrue(store, "Ready"), nil
}

// spec is the sample's minimal ServiceSpec on the managed MariaDB.
func (s service) spec(ns string) serviceapi.ServiceSpec {
	return serviceapi.ServiceSpec{
		OpenStackRelease: s.release,
		Image:            serviceapi.ImageSpec{Repository: "registry.example.org/openstack/" + s.name, Tag: s.release},
		Database: serviceapi.DatabaseSpec{
			ClusterRef: &serviceapi.LocalObjectRef{Name: benchMariaDB},
			Database:   s.name,
			SecretRef:  serviceapi.SecretKeyRef{Name: s.dbSecret()},
		},
		Cache:            serviceapi.CacheSpec{Servers: []string{"memcached." + ns + ".svc:11211"}},
		KeystoneEndpoint: "http://keystone-api.openstack.svc:5000/v3",
		ServiceUser:      serviceapi.ServiceUserSpec{SecretRef: serviceapi.SecretKeyRef{Name: s.userSecret()}},
	}
}

// rotate changes the service user's password.
func (s service) rotate(ctx context.Context, c client.Client, ns, _ string, round int) error {
	return updateSecret(ctx, c, ns, s.userSecret(), map[string]string{"password": fmt.Sprintf("rotated-%d", round)})
}

// deployment is the API Deployment, named after the CR.
func deployment(ns, name string) client.ObjectKey { return client.ObjectKey{Namespace: ns, Name: name} }

// kinds are the kinds every service operator writes or reads (its workload
// kinds, Secrets, the MariaDB and the CRs provisioned on it), then extra.
func kinds(extra ...schema.GroupVersionKind) []schema.GroupVersionKind {
	scheme := managerconfig.NewScheme()
	var out []schema.GroupVersionKind
	for _, o := range append(managerconfig.WorkloadKinds(&corev1.Secret{}, &mariadbv1alpha1.MariaDB{}), managerconfig.MariaDBKinds()...) {
		gvk, err := apiutil.GVKForObject(o, scheme)
		if err != nil {
			panic(err) // a kind the operators' scheme lacks: a programming error
		}
		out = append(out, gvk)
	}
	return append(out, extra...)
}
