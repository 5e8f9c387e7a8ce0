// Package probe checks a service's HTTP endpoint and keeps passing results
// for a short TTL, so a healthy API is not probed on every pass.
package probe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

// Defaults of the probe.
const (
	DefaultTTL     = 30 * time.Second
	DefaultTimeout = 10 * time.Second
	maxBody        = 256
)

// Result of a probe; Reason is a PlacementAPIReady-style reason.
type Result struct {
	Healthy bool
	Reason  string
	Message string
	// Sent says a request went out (false: a cached passing answer).
	Sent bool
}

// Cache remembers passing probes per CR.
type Cache struct {
	TTL     time.Duration
	Timeout time.Duration
	Now     func() time.Time

	mu      sync.Mutex
	entries map[types.NamespacedName]entry
}

type entry struct {
	uid types.UID
	url string
	at  time.Time
}

// NewCache returns a cache with the default TTL and timeout.
func NewCache() *Cache {
	return &Cache{TTL: DefaultTTL, Timeout: DefaultTimeout, Now: time.Now}
}

// Check probes url with GET unless a passing result for the same UID and URL
// is younger than the TTL and the condition is already True. Only a cancelled
// parent context is returned as an error.
func (c *Cache) Check(ctx context.Context, hc *http.Client, key types.NamespacedName, uid types.UID, url string, alreadyTrue bool) (Result, error) {
	now := c.Now()
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if alreadyTrue && ok && e.uid == uid && e.url == url && now.Sub(e.at) < c.TTL {
		return Result{Healthy: true, Reason: conditions.ReasonAPIHealthy, Message: "API answered " + url}, nil
	}
	res, err := c.get(ctx, hc, url)
	if err != nil {
		return Result{}, err
	}
	res.Sent = true
	c.mu.Lock()
	defer c.mu.Unlock()
	if res.Healthy {
		if c.entries == nil {
			c.entries = map[types.NamespacedName]entry{}
		}
		c.entries[key] = entry{uid: uid, url: url, at: now}
	} else {
		delete(c.entries, key)
	}
	return res, nil
}

// Evict forgets a CR, on finalizer release.
func (c *Cache) Evict(key types.NamespacedName) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, key)
}

// Cached reports whether a passing probe of key is remembered.
func (c *Cache) Cached(key types.NamespacedName) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[key]
	return ok
}

// Len returns the number of cached entries.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

func (c *Cache) get(parent context.Context, hc *http.Client, url string) (Result, error) {
	ctx, cancel := context.WithTimeout(parent, c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Result{Reason: conditions.ReasonHealthCheckFailed, Message: err.Error()}, nil
	}
	resp, err := hc.Do(req)
	if err != nil {
		if parent.Err() != nil {
			return Result{}, parent.Err()
		}
		return Classify(err), nil
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxBody))
		return Result{Reason: conditions.ReasonAPIUnhealthy,
			Message: fmt.Sprintf("GET %s returned %d: %s", url, resp.StatusCode, oneLine(body))}, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return Result{Healthy: true, Reason: conditions.ReasonAPIHealthy, Message: "API answered " + url}, nil
}

// Classify maps a transport error to a reason.
func Classify(err error) Result {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return Result{Reason: conditions.ReasonHealthCheckTimeout, Message: err.Error()}
	case errors.As(err, &dnsErr):
		return Result{Reason: conditions.ReasonEndpointNotReady, Message: err.Error()}
	case errors.Is(err, syscall.ECONNREFUSED):
		return Result{Reason: conditions.ReasonConnectionFailed, Message: err.Error()}
	default:
		return Result{Reason: conditions.ReasonHealthCheckFailed, Message: err.Error()}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func oneLine(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > maxBody {
		s = strings.ToValidUTF8(s[:maxBody], "")
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// ServiceProxyURL is the API server path that proxies to port of a Service.
func ServiceProxyURL(apiHost, namespace, service string, port int32) string {
	return fmt.Sprintf("%s/api/v1/namespaces/%s/services/%s:%d/proxy/", strings.TrimSuffix(apiHost, "/"), namespace, service, port)
}
