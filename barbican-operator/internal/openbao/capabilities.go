package openbao

// RequiredCapabilities are what Barbican's AppRole needs on <mount>/data/*.
var RequiredCapabilities = []string{"create", "read", "update", "delete", "list"}

// MissingCapabilities returns the entries of want absent from have, in the
// order of want; nil when none is missing. "root" in have covers everything.
func MissingCapabilities(have []string, want ...string) []string {
	held := make(map[string]bool, len(have))
	for _, c := range have {
		if c == "root" {
			return nil
		}
		held[c] = true
	}
	var missing []string
	for _, c := range want {
		if !held[c] {
			missing = append(missing, c)
		}
	}
	return missing
}
