package controller_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// instance is a managed OpenBao instance as the OpenBao operator leaves it:
// a real server whose certificate names <instance>.<ns>.svc (reached
// through the manager's --resolve table), set up as ConfigureManaged says,
// its provisioner ServiceAccount, its CA Secret and an OpenBaoCluster
// marked Available; and the namespace's TokenRequest Role that the chart
// grants the operator for each of rbac.secretStoreNamespaces.
type instance struct {
	name string
	host string // host:port the operator dials
	srv  *openbao.Server
	kube *openbao.Kube
}

// managedInstance brings up the instance name in ns with the AppRole's
// secret_id_ttl ttl (0: no expiry). Parts the test wants missing are
// skipped through without.
func managedInstance(t *testing.T, ns, name string, ttl time.Duration, without ...string) *instance {
	t.Helper()
	ctx := context.Background()
	host := name + "." + ns + ".svc"
	srv := openbao.StartWith(t, openbao.Options{DNSNames: []string{host}})
	u, err := url.Parse(srv.URL)
	must(t, err)
	suite.Resolve.Map(host+":8200", u.Host)
	t.Cleanup(func() { suite.Resolve.Map(host+":8200", "") })
	kube, err := openbao.NewKube(cfg)
	must(t, err)
	opts, err := kube.ManagedOptions(ctx, ns, name, ttl)
	must(t, err)
	must(t, srv.ConfigureManaged(ctx, opts))
	skip := map[string]bool{}
	for _, w := range without {
		skip[w] = true
	}
	if !skip["tokenrole"] {
		grantTokenRequest(t, ns)
	}
	if !skip["serviceaccount"] {
		must(t, kube.CreateServiceAccount(ctx, ns, controller.ProvisionerName(name)))
	}
	if !skip["ca"] {
		suite.Secret(t, ns, controller.InstanceCASecretName(name), map[string]string{"ca.crt": string(srv.CAPEM)})
	}
	if !skip["cluster"] {
		createInstance(t, ns, name, !skip["available"])
	}
	return &instance{name: name, host: host + ":8200", srv: srv, kube: kube}
}

// record puts a Recorder between the operator and the instance's server.
func (in *instance) record(t *testing.T) *openbao.Recorder {
	t.Helper()
	rec := in.srv.Record(t)
	suite.Resolve.Map(in.host, rec.Addr)
	return rec
}

// grantTokenRequest binds the chart's TokenRequest Role in ns to the
// suite manager's ServiceAccount, once per namespace.
func grantTokenRequest(t *testing.T, ns string) {
	t.Helper()
	role, binding := fixture.TokenRequestRBAC(ns, operatorNamespace, operatorSA)
	for _, o := range []client.Object{role, binding} {
		if err := k8s.Create(context.Background(), o); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
}

// createInstance creates the OpenBaoCluster and sets its Available condition.
func createInstance(t *testing.T, ns, name string, available bool) {
	t.Helper()
	ctx := context.Background()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(controller.InstanceGVK)
	u.SetNamespace(ns)
	u.SetName(name)
	must(t, k8s.Create(ctx, u))
	setAvailable(t, ns, name, available)
}

// setAvailable writes the OpenBaoCluster's Available condition.
func setAvailable(t *testing.T, ns, name string, available bool) {
	t.Helper()
	status := "False"
	if available {
		status = "True"
	}
	suite.Eventually(t, "OpenBaoCluster "+name+" Available="+status, func() error {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(controller.InstanceGVK)
		if err := k8s.Get(context.Background(), keyOf(ns, name), u); err != nil {
			return err
		}
		cond := map[string]any{"type": "Available", "status": status, "reason": "Test", "message": "set by the test",
			"lastTransitionTime": metav1.Now().UTC().Format(time.RFC3339)}
		if err := unstructured.SetNestedSlice(u.Object, []any{cond}, "status", "conditions"); err != nil {
			return err
		}
		return k8s.Status().Update(context.Background(), u)
	})
}
