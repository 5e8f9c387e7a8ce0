package render

import "github.com/c5c3/openstack-operators/common/lib/workload"

// OpenBaoPorts are the NetworkPolicy's OpenBao egress ports for the store
// server URLs: each distinct explicit port, else 443 for https and 80 for
// http, sorted. A URL that does not parse opens nothing.
func OpenBaoPorts(urls []string) []int32 {
	return workload.URLPorts(urls)
}
