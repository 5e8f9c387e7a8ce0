// Package catalog embeds the placement option catalogs, one per supported
// release, generated from oslo-config-generator output (never hand-edited).
package catalog

import (
	"embed"

	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
)

//go:embed *.json
var files embed.FS

// MinSections guards against a truncated catalog file.
const MinSections = 8

// Load parses the embedded catalogs; an error means the binary is broken and
// the operator must not start.
func Load() (*extraconfig.Catalogs, error) {
	return extraconfig.LoadCatalogs(files, "placement", MinSections)
}
