// Package docs keeps docs/barbican in step with the operator's code (see
// testsupport/docscheck): the generated CRD reference of both kinds, the reason,
// event and flag tables, the troubleshooting sections, the pipeline diagram
// and the links.
package docs

import (
	"flag"
	"testing"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/controller"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/testsupport/docscheck"
)

var update = flag.Bool("update", false, "rewrite docs/barbican/crd-reference.md and the guide's pipeline diagram")

func TestDocs(t *testing.T) {
	docscheck.Suite{
		Root:    "../../..",
		Service: "barbican", Title: "Barbican",
		CRDs: []docscheck.CRD{
			{Kind: "Barbican", File: "barbican-operator/config/crd/barbican.openstack.c5c3.io_barbicans.yaml", MinFields: 100},
			{Kind: "BarbicanSecretStore", File: "barbican-operator/config/crd/barbican.openstack.c5c3.io_barbicansecretstores.yaml", MinFields: 18},
		},
		// The shared reasons, the release gate's (same values), the
		// operator's API. Barbican has no upgrade phase machine, so
		// common/framework/upgrade is not among them.
		ReasonDirs: []string{"common/framework/conditions", "common/lib/release", "barbican-operator/api/v1alpha1"},
		EventDirs:  []string{"barbican-operator/internal/controller", "common/framework/service", "common/framework/finalize"},
		BindFlags:  func(fs *flag.FlagSet) { bootstrap.BindFlags(fs, barbican.Operator.Profile, barbican.Operator.Group) },
		Pipeline:   controller.Pipeline,
		RBACDirs:   []string{"barbican-operator", "common/framework/rbac"},
		Role:       "barbican-operator/config/rbac/role.yaml",
		RBACNote:   "Besides the ClusterRole, the chart creates a Role in its own namespace for leader election, and in each namespace of `rbac.secretStoreNamespaces` a Role that lets the operator create tokens (`serviceaccounts/token`, TokenRequest) for the provisioner ServiceAccount of a managed store: never cluster-wide ([install.md](install.md#what-the-chart-installs)).",
		MinReasons: 50,
		Update:     *update,
	}.Run(t)
}
