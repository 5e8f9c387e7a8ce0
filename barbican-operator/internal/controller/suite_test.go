package controller_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/testsupport/runsuite"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The suite runs the real manager (both controllers) in-process against a
// real kube-apiserver and etcd. Simulators (testsupport/testenv) write the status
// ESO, mariadb-operator and the Deployment/Job controllers would write; the
// API health probe hits a local HTTP stand-in per test, since no
// barbican-api runs here. The store controller talks to a real
// OpenBao-compatible server (Vault, testsupport/openbao) per test. The
// OpenBaoCluster CRD is a minimal stand-in (testdata/crd). The manager
// acts as a ServiceAccount that holds the generated ClusterRole and, in the
// namespaces of managed stores, the TokenRequest Role the chart grants.
var (
	k8s        client.Client
	cfg        *rest.Config
	reconciler *controller.BarbicanReconciler
	writes     testenv.WriteCounter
	api        = &testenv.ProbeURLs{}
	suite      = &testenv.Suite{Writes: &writes, Dump: dumpBarbicans}
)

func TestMain(m *testing.M) {
	crds := []string{filepath.Join("..", "..", "config", "crd"), filepath.Join("testdata", "crd")}
	os.Exit(runsuite.Main(m, suite, crds, filepath.Join("..", "..", "config", "rbac", "role.yaml"), barbican.Operator, operatorNamespace, api,
		func(r *controller.BarbicanReconciler, c *rest.Config) { reconciler, cfg, k8s = r, c, suite.Client }))
}

const (
	clusterDomain = runsuite.ClusterDomain
	// operatorNamespace and operatorSA are the identity the suite's manager
	// acts as: operatorSA is named after the generated ClusterRole.
	operatorNamespace = "barbican-system"
	operatorSA        = "barbican-operator"
)

// dumpBarbicans prints every Barbican's and store's conditions.
func dumpBarbicans() string {
	var b strings.Builder
	var list barbicanv1.BarbicanList
	if err := k8s.List(context.Background(), &list); err != nil {
		return err.Error()
	}
	for _, x := range list.Items {
		testenv.WriteConditions(&b, fmt.Sprintf("Barbican %s/%s gen %d installed %q target %q projected %v %v:", x.Namespace, x.Name, x.Generation,
			x.Status.InstalledRelease, x.Status.TargetRelease, x.Status.ProjectedSecretStores, x.Status.ProjectedSecretStoreHosts), x.Status.Conditions)
	}
	var stores barbicanv1.BarbicanSecretStoreList
	if err := k8s.List(context.Background(), &stores); err != nil {
		return err.Error()
	}
	for _, x := range stores.Items {
		testenv.WriteConditions(&b, fmt.Sprintf("BarbicanSecretStore %s/%s:", x.Namespace, x.Name), x.Status.Conditions)
	}
	return b.String()
}
