// Package paste is what the services' paste pipelines share: the user's
// spec.middleware turned into [filter:<name>] sections and pipeline entries.
package paste

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

// middlewareName is the CRD pattern: one pipeline token, one section name.
var middlewareName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// Middleware adds a [filter:<name>] section per spec.middleware entry to f
// and returns the names to place before and after the service's own
// filters, in spec order. reserved reports the names of the service's own
// paste file. Config values have '%' doubled: paste reads the file through
// ConfigParser interpolation, which would otherwise expand or refuse them.
func Middleware(f ini.File, mws []serviceapi.MiddlewareSpec, reserved func(name string) bool) (before, after []string, err error) {
	for _, m := range mws {
		refuse := func(why string) error { return fmt.Errorf("spec.middleware %q %s", m.Name, why) }
		var side *[]string
		switch m.Position {
		case serviceapi.MiddlewareBefore:
			side = &before
		case serviceapi.MiddlewareAfter:
			side = &after
		default:
			return nil, nil, refuse(fmt.Sprintf("has position %q, want before or after", m.Position))
		}
		switch {
		case !middlewareName.MatchString(m.Name):
			return nil, nil, refuse("needs a name of [A-Za-z0-9_.-]")
		case m.FilterFactory == "":
			return nil, nil, refuse("needs a filterFactory")
		case reserved(m.Name):
			return nil, nil, refuse("reuses a name of the service's paste file")
		case f["filter:"+m.Name] != nil:
			return nil, nil, refuse("is listed twice")
		}
		section := map[string]string{"paste.filter_factory": m.FilterFactory}
		for k, v := range m.Config {
			if k == "use" || strings.HasPrefix(k, "paste.") {
				return nil, nil, refuse(fmt.Sprintf("config key %q would replace the filter factory", k))
			}
			section[k] = strings.ReplaceAll(v, "%", "%%")
		}
		f["filter:"+m.Name] = section
		*side = append(*side, m.Name)
	}
	return before, after, nil
}
