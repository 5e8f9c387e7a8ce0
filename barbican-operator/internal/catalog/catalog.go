// Package catalog embeds barbican's oslo.config option catalogs, one JSON
// file per supported release exactly as oslo-config-generator produced it;
// the webhook checks spec.extraConfig against them at admission.
package catalog

import (
	"embed"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
)

//go:embed *.json
var files embed.FS

// minSections guards against a truncated generator run: barbican's
// catalogs hold 22 sections.
const minSections = 18

// Load parses the embedded catalogs. An error means a broken build, and the
// operator must not start with it.
func Load() (*extraconfig.Catalogs, error) {
	return extraconfig.LoadCatalogs(files, barbicanv1.ServiceName, minSections)
}
