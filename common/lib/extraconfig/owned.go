package extraconfig

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// OwnedKey is an option the operator renders itself. Rejected keys cannot be
// overridden at all; the others are honoured but reported, since an override
// can silently break what the operator manages.
type OwnedKey struct {
	Section  string
	Key      string
	Owner    string // spec field that manages the option, e.g. spec.serviceUser.secretRef
	Impact   string // what overriding it breaks, shown to the user
	Rejected bool
}

// Registry is the static list of owned keys of one operator.
type Registry []OwnedKey

// Lookup returns the owned key registered for section/key, compared verbatim.
func (r Registry) Lookup(section, key string) (OwnedKey, bool) {
	for _, o := range r {
		if o.Section == section && o.Key == key {
			return o, true
		}
	}
	return OwnedKey{}, false
}

// Overrides returns the honoured (non-rejected) owned keys that extra sets,
// sorted by section then key.
func (r Registry) Overrides(extra map[string]map[string]string) []OwnedKey {
	var out []OwnedKey
	for section, kv := range extra {
		for key := range kv {
			if o, ok := r.Lookup(section, key); ok && !o.Rejected {
				out = append(out, o)
			}
		}
	}
	sortKeys(out)
	return out
}

// OverrideMessage formats overridden owned keys for a condition message; it
// returns "" when there are none.
func OverrideMessage(keys []OwnedKey) string {
	if len(keys) == 0 {
		return ""
	}
	sorted := slices.Clone(keys)
	sortKeys(sorted)
	parts := make([]string, len(sorted))
	for i, o := range sorted {
		parts[i] = fmt.Sprintf("[%s] %s (%s)", o.Section, o.Key, o.Impact)
	}
	return "spec.extraConfig overrides operator-owned keys: " + strings.Join(parts, "; ")
}

func sortKeys(keys []OwnedKey) {
	slices.SortFunc(keys, func(a, b OwnedKey) int {
		return cmp.Or(cmp.Compare(a.Section, b.Section), cmp.Compare(a.Key, b.Key))
	})
}
