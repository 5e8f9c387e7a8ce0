// Package docs keeps docs/glance in step with the operator's code (see
// testsupport/docscheck): the generated CRD reference of both kinds, the reason,
// event and flag tables, the troubleshooting sections, the pipeline diagram
// and the links.
package docs

import (
	"flag"
	"testing"

	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	glance "github.com/c5c3/openstack-operators/glance-operator"
	"github.com/c5c3/openstack-operators/glance-operator/internal/controller"
	"github.com/c5c3/openstack-operators/testsupport/docscheck"
)

var update = flag.Bool("update", false, "rewrite docs/glance/crd-reference.md and the guide's pipeline diagram")

func TestDocs(t *testing.T) {
	docscheck.Suite{
		Root:    "../../..",
		Service: "glance", Title: "Glance",
		CRDs: []docscheck.CRD{
			{Kind: "Glance", File: "glance-operator/config/crd/glance.openstack.c5c3.io_glances.yaml", MinFields: 80},
			{Kind: "GlanceBackend", File: "glance-operator/config/crd/glance.openstack.c5c3.io_glancebackends.yaml", MinFields: 10},
		},
		// The shared reasons, the release gate's, the upgrade flow's, the operator's API.
		ReasonDirs: []string{"common/framework/conditions", "common/lib/release", "common/framework/upgrade", "glance-operator/api/v1alpha1"},
		EventDirs:  []string{"glance-operator/internal/controller", "common/framework/service", "common/framework/finalize", "common/framework/upgrade"},
		BindFlags:  func(fs *flag.FlagSet) { bootstrap.BindFlags(fs, glance.Operator.Profile, glance.Operator.Group) },
		Pipeline:   controller.Pipeline,
		RBACDirs:   []string{"glance-operator", "common/framework/rbac"},
		Role:       "glance-operator/config/rbac/role.yaml",
		RBACNote:   "Besides the ClusterRole, the chart creates a Role in its own namespace for leader election (Leases; [install.md](install.md#what-the-chart-installs)).",
		MinReasons: 40,
		Update:     *update,
	}.Run(t)
}
