// Package catalog embeds glance's oslo.config option catalogs, one JSON file
// per supported release as oslo-config-generator wrote it (never hand-edited);
// spec.extraConfig is checked against them at admission.
package catalog

import (
	"embed"

	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

//go:embed *.json
var files embed.FS

// Load parses the embedded catalogs. Glance's have 30 sections; fewer than 25
// means a truncated generator run. An error is a broken build: the operator
// must not start.
func Load() (*extraconfig.Catalogs, error) {
	return extraconfig.LoadCatalogs(files, glancev1.ServiceName, 25)
}
