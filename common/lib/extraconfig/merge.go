// Package extraconfig merges, classifies and validates the user-supplied
// spec.extraConfig overlay on top of operator-rendered INI defaults.
package extraconfig

import "github.com/c5c3/openstack-operators/common/lib/ini"

// Merge overlays extra on defaults: the user wins per key and may add
// sections. Section and key names are compared verbatim. Neither input is
// mutated, so callers can keep rendering from the same defaults.
func Merge(defaults ini.File, extra map[string]map[string]string) ini.File {
	out := make(ini.File, len(defaults)+len(extra))
	for _, src := range []map[string]map[string]string{defaults, extra} {
		for section, kv := range src {
			dst := out[section]
			if dst == nil {
				dst = make(map[string]string, len(kv))
				out[section] = dst
			}
			for k, v := range kv {
				dst[k] = v
			}
		}
	}
	return out
}
