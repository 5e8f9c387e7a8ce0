package workload

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// URLPorts are the distinct TCP ports of server URLs, sorted: the explicit
// port, else 443 for https and 80 for http. A URL that does not parse, has
// no host, a port outside 1-65535, or neither a port nor an http(s) scheme
// contributes nothing, so a malformed entry never opens a port it does not
// name. Egress rules to servers outside the cluster (object stores, key
// stores) derive from it.
func URLPorts(urls []string) []int32 {
	seen := map[int32]bool{}
	for _, raw := range urls {
		if p, ok := urlPort(raw); ok {
			seen[p] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

func urlPort(raw string) (int32, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return 0, false
	}
	if explicit := u.Port(); explicit != "" {
		n, err := strconv.ParseUint(explicit, 10, 16)
		return int32(n), err == nil && n > 0
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return 443, true
	case "http":
		return 80, true
	}
	return 0, false
}
