package charts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// clusterScoped are the kinds the charts render without a namespace.
var clusterScoped = map[string]bool{
	"CustomResourceDefinition": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"MutatingWebhookConfiguration": true, "ValidatingWebhookConfiguration": true,
}

// Every operator's chart rendered into one cluster: into one namespace with
// each chart's own release name, and with one release name in a namespace
// per chart. No object (cluster-scoped, or namespaced in a shared namespace)
// is rendered by two charts.
func TestChartsRenderNoSharedNames(t *testing.T) {
	for name, place := range map[string]func(c chart) (release, namespace string){
		"one namespace":    func(c chart) (string, string) { return c.release, "openstack" },
		"one release name": func(c chart) (string, string) { return "openstack", c.namespace },
	} {
		t.Run(name, func(t *testing.T) {
			owner := map[string]string{}
			for _, c := range operatorCharts {
				release, ns := place(c)
				for key, o := range renderAs(t, c, release, ns) {
					id := key
					if !clusterScoped[o.GetKind()] {
						id = ns + "/" + key
					}
					if prev, ok := owner[id]; ok {
						t.Errorf("%s is rendered by both %s and %s", id, prev, c.name)
					}
					owner[id] = c.name
				}
			}
			if len(owner) < 20 {
				t.Fatalf("only %d objects rendered; the rendering is broken", len(owner))
			}
		})
	}
}

// A user installs every operator with its own helm install into one
// namespace of one cluster (a real kube-apiserver): each install succeeds
// (Helm refuses one that would take over another release's object), each
// chart's CRDs, webhooks and RBAC exist side by side, and uninstalling one
// release leaves the others' objects in place.
func TestChartsInstallSideBySide(t *testing.T) {
	c, kubeconfig := startAPIServer(t)
	const ns = "openstack"
	for _, ch := range operatorCharts {
		if out, err := helm(t, "install", ch.release, "charts/"+ch.name, "--namespace", ns, "--create-namespace", "--kubeconfig", kubeconfig); err != nil {
			t.Fatalf("installing %s next to the others: %v\n%s", ch.name, err, out)
		}
	}
	for _, ch := range operatorCharts {
		assertInstalled(t, c, ns, ch)
	}
	// Uninstalling the first release leaves every other one whole.
	first := operatorCharts[0]
	if out, err := helm(t, "uninstall", first.release, "--namespace", ns, "--kubeconfig", kubeconfig); err != nil {
		t.Fatalf("uninstalling %s: %v\n%s", first.name, err, out)
	}
	if err := c.Get(context.Background(), client.ObjectKey{Name: first.fullname()}, &rbacv1.ClusterRole{}); !apierrors.IsNotFound(err) {
		t.Errorf("ClusterRole %s after its release was uninstalled: err = %v", first.fullname(), err)
	}
	for _, ch := range operatorCharts[1:] {
		assertInstalled(t, c, ns, ch)
	}
}

// startAPIServer starts a real kube-apiserver and etcd for the test and
// returns a client of it and its kubeconfig file, for helm.
func startAPIServer(t *testing.T) (client.Client, string) {
	t.Helper()
	assets, err := testenv.Assets()
	if err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: assets}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting kube-apiserver: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiextensionsv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c, kubeconfig
}

// assertInstalled checks that ch's release objects exist on the cluster.
func assertInstalled(t *testing.T, c client.Client, ns string, ch chart) {
	t.Helper()
	ctx := context.Background()
	for _, name := range ch.crds {
		if err := c.Get(ctx, client.ObjectKey{Name: name}, &apiextensionsv1.CustomResourceDefinition{}); err != nil {
			t.Errorf("%s: CRD %s: %v", ch.name, name, err)
		}
	}
	for key, obj := range map[client.ObjectKey]client.Object{
		{Name: ch.fullname()}:                                  &rbacv1.ClusterRole{},
		{Name: ch.fullname()}:                                  &rbacv1.ClusterRoleBinding{},
		{Namespace: ns, Name: ch.fullname()}:                   &appsv1.Deployment{},
		{Namespace: ns, Name: ch.fullname() + "-webhook-cert"}: &corev1.Secret{},
	} {
		if err := c.Get(ctx, key, obj); err != nil {
			t.Errorf("%s: %T %s: %v", ch.name, obj, key, err)
		}
	}
	mut := &admissionv1.MutatingWebhookConfiguration{}
	if err := c.Get(ctx, client.ObjectKey{Name: ch.fullname()}, mut); err != nil {
		t.Fatalf("%s: MutatingWebhookConfiguration: %v", ch.name, err)
		return
	}
	val := &admissionv1.ValidatingWebhookConfiguration{}
	if err := c.Get(ctx, client.ObjectKey{Name: ch.fullname()}, val); err != nil {
		t.Fatalf("%s: ValidatingWebhookConfiguration: %v", ch.name, err)
	}
	for _, h := range mut.Webhooks {
		if h.ClientConfig.Service == nil || h.ClientConfig.Service.Name != ch.fullname()+"-webhook" ||
			!strings.Contains(*h.ClientConfig.Service.Path, strings.TrimSuffix(ch.name, "-operator")) {
			t.Errorf("%s: webhook %s calls %+v", ch.name, h.Name, h.ClientConfig.Service)
		}
	}
	if len(mut.Webhooks) != len(ch.admitted("MutatingWebhookConfiguration")) || len(val.Webhooks) != len(ch.resources) {
		t.Errorf("%s: %d mutating and %d validating webhooks, want %d and %d", ch.name, len(mut.Webhooks), len(val.Webhooks), len(ch.admitted("MutatingWebhookConfiguration")), len(ch.resources))
	}
}
