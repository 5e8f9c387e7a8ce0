// Package docs keeps docs/placement in step with the operator's code (see
// testsupport/docscheck): the generated CRD reference, the reason, event and flag
// tables, the troubleshooting sections, the pipeline diagram and the links.
package docs

import (
	"flag"
	"testing"

	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	placement "github.com/c5c3/openstack-operators/placement-operator"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	"github.com/c5c3/openstack-operators/testsupport/docscheck"
)

var update = flag.Bool("update", false, "rewrite docs/placement/crd-reference.md and the guide's pipeline diagram")

func TestDocs(t *testing.T) {
	docscheck.Suite{
		Root:    "../../..",
		Service: "placement", Title: "Placement",
		CRDs: []docscheck.CRD{{Kind: "Placement", File: "placement-operator/config/crd/placement.openstack.c5c3.io_placements.yaml", MinFields: 60}},
		// The shared reasons, the release gate's (same values), the operator's API.
		ReasonDirs: []string{"common/framework/conditions", "common/lib/release", "placement-operator/api/v1alpha1"},
		EventDirs:  []string{"placement-operator/internal/controller", "common/framework/service", "common/framework/finalize"},
		BindFlags:  func(fs *flag.FlagSet) { bootstrap.BindFlags(fs, placement.Operator.Profile, placement.Operator.Group) },
		Pipeline:   controller.Pipeline,
		RBACDirs:   []string{"placement-operator", "common/framework/rbac"},
		Role:       "placement-operator/config/rbac/role.yaml",
		RBACNote:   "Besides the ClusterRole, the chart creates a Role in its own namespace for leader election (Leases; [install.md](install.md#what-the-chart-installs)).",
		MinReasons: 30,
		Update:     *update,
	}.Run(t)
}
