package barbican_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/inprocess"
	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// env is what the suite shares (see suite.Env).
var env suite.Env

// The managed OpenBao instance of TestManagedStore: the chart grants the
// operator TokenRequest in its namespace (rbac.secretStoreNamespaces), the
// operator dials its Service through --resolve, the pods through their
// hosts file; the server listens on 127.0.0.1 at the Service's port.
const (
	managedNamespace = "e2e-testmanagedstore"
	managedInstance  = "bao"
	managedHost      = managedInstance + "." + managedNamespace + ".svc"
	managedAddr      = "127.0.0.1:8200"
)

func TestMain(m *testing.M) {
	// hack/rootfs.sh builds the root once per machine; make test builds it
	// before the suites run.
	root, err := testenv.DebianRoot("sid")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e set-up: the sid root filesystem:", err)
		os.Exit(1)
	}
	os.Exit(suite.Main(m, suite.Options{
		Cluster: "e2e-barbican", Chart: "barbican-operator", Release: "barbican", OperatorNamespace: "barbican-system",
		AddToScheme:  barbicanv1.AddToScheme,
		Profiles:     func(string) []localrun.Profile { return []localrun.Profile{localrun.Barbican(root)} },
		CRDs:         []string{inprocess.InstanceCRDDir + "/openbao.org_openbaoclusters.yaml"},
		Namespaces:   []string{managedNamespace},
		HelmSet:      []string{"rbac.secretStoreNamespaces={" + managedNamespace + "}"},
		OperatorArgs: []string{"--resolve=" + managedHost + ":8200=" + managedAddr},
		Hosts:        instanceHosts,
	}, &env))
}

// instanceHosts names the Services of the namespace's OpenBaoClusters (none
// on a cluster without the kind: a target cluster).
func instanceHosts(ctx context.Context, c client.Reader, ns string) ([]string, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(inprocess.InstanceGVK.GroupVersion().WithKind(inprocess.InstanceGVK.Kind + "List"))
	if err := c.List(ctx, list, client.InNamespace(ns)); meta.IsNoMatchError(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var hosts []string
	for _, o := range list.Items {
		hosts = append(hosts, o.GetName()+"."+ns+".svc")
	}
	return hosts, nil
}
