package barbican_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/managedbao"
	"github.com/c5c3/openstack-operators/e2e/suite"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// env is what the suite shares (see suite.Env).
var env suite.Env

// The managed OpenBao instances (one at a time, each named bao in its
// test's namespace): the chart grants the operator TokenRequest in those
// namespaces (rbac.secretStoreNamespaces), the operator dials their
// Services through --resolve, the pods through their hosts file; the
// server listens at the Service's port on a loopback address of this
// suite's own (the conformance suite's server may listen on that port
// beside it).
const (
	managedInstance = "bao"
	managedIP       = "127.0.0.2"
	managedAddr     = managedIP + ":8200"
)

// managedNamespaces are the namespaces of the tests with a managed store.
var managedNamespaces = []string{"e2e-testmanagedstore", "e2e-testfreshinstalltoready-2025-2", "e2e-testfreshinstalltoready-2026-1"}

// resolveInstances maps every managed instance's Service to the server.
func resolveInstances() string {
	var entries []string
	for _, ns := range managedNamespaces {
		entries = append(entries, managedbao.Host(ns, managedInstance)+":8200="+managedAddr)
	}
	return strings.Join(entries, ",")
}

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
		CRDs:         []string{barbican.InstanceCRDDir + "/openbao.org_openbaoclusters.yaml"},
		Namespaces:   managedNamespaces,
		HelmSet:      []string{"rbac.secretStoreNamespaces={" + strings.Join(managedNamespaces, ",") + "}"},
		OperatorArgs: []string{"--resolve=" + resolveInstances()},
		Hosts:        instanceHosts,
	}, &env))
}

// instanceHosts resolves the Services of the namespace's OpenBaoClusters
// to the server's address (none on a cluster without the kind: a target
// cluster).
func instanceHosts(ctx context.Context, c client.Reader, ns string) ([]string, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(barbican.InstanceGVK.GroupVersion().WithKind(barbican.InstanceGVK.Kind + "List"))
	if err := c.List(ctx, list, client.InNamespace(ns)); meta.IsNoMatchError(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var hosts []string
	for _, o := range list.Items {
		hosts = append(hosts, localsvc.HostAt(managedbao.Host(ns, o.GetName()), managedIP))
	}
	return hosts, nil
}
