// Package dialer maps the host:port an operator dials to another address,
// curl --resolve style, for an operator run outside the cluster network:
// an in-cluster Service name such as a managed OpenBao instance's
// <instance>.<ns>.svc:8200 does not resolve there. TLS still verifies the
// name the operator asked for.
package dialer

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
)

// Table maps host:port to the address dialled instead. The zero value maps
// nothing; it is safe for concurrent use and is a flag.Value.
type Table struct {
	mu sync.RWMutex
	m  map[string]string
}

// Map maps hostport to addr; an empty addr removes the mapping.
func (t *Table) Map(hostport, addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if addr == "" {
		delete(t.m, hostport)
		return
	}
	if t.m == nil {
		t.m = map[string]string{}
	}
	t.m[hostport] = addr
}

// Lookup is the address hostport is dialled at: its mapping, or itself.
func (t *Table) Lookup(hostport string) string {
	if t == nil {
		return hostport
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	if a, ok := t.m[hostport]; ok {
		return a
	}
	return hostport
}

// DialContext dials the mapped address of addr.
func (t *Table) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, t.Lookup(addr))
}

// String lists the mappings as host:port=addr, comma-separated and sorted.
func (t *Table) String() string {
	if t == nil {
		return ""
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]string, 0, len(t.m))
	for k, v := range t.m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// Set (flag.Value) adds the comma-separated host:port=addr mappings of the flag
// value; each side must be a host:port.
func (t *Table) Set(value string) error {
	for _, entry := range strings.Split(value, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		from, to, ok := strings.Cut(entry, "=")
		if !ok {
			return fmt.Errorf("%q is not host:port=address", entry)
		}
		for _, hp := range []string{from, to} {
			if _, _, err := net.SplitHostPort(hp); err != nil {
				return fmt.Errorf("%q in %q: %w", hp, entry, err)
			}
		}
		t.Map(from, to)
	}
	return nil
}
