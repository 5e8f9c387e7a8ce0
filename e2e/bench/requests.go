package bench

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"k8s.io/client-go/rest"
)

// Requests counts API requests by "VERB resource[/subresource]", the verbs
// as the API server's apiserver_request_total labels them (GET, LIST,
// POST, PUT, PATCH, APPLY, DELETE, DELETECOLLECTION). Long-running WATCH
// requests are left out: the API server counts a watch when it ends, which
// does not line up with any phase.
type Requests map[string]float64

// mutatingVerbs change state.
var mutatingVerbs = map[string]bool{"POST": true, "PUT": true, "PATCH": true, "APPLY": true, "DELETE": true, "DELETECOLLECTION": true}

func splitKey(k string) (verb, resource string) {
	verb, resource, _ = strings.Cut(k, " ")
	return verb, resource
}

// Mutating is the number of requests that change state.
func (r Requests) Mutating() float64 {
	var n float64
	for k, v := range r {
		if verb, _ := splitKey(k); mutatingVerbs[verb] {
			n += v
		}
	}
	return n
}

// OnlyMutating keeps the state-changing requests.
func (r Requests) OnlyMutating() Requests {
	out := Requests{}
	for k, v := range r {
		if verb, _ := splitKey(k); mutatingVerbs[verb] {
			out[k] = v
		}
	}
	return out
}

// Total is the number of requests.
func (r Requests) Total() float64 {
	var n float64
	for _, v := range r {
		n += v
	}
	return n
}

// Minus subtracts o; keys that reach zero are dropped.
func (r Requests) Minus(o Requests) Requests {
	out := Requests{}
	for k, v := range r {
		out[k] = v
	}
	for k, v := range o {
		out[k] -= v
	}
	for k, v := range out {
		if v == 0 {
			delete(out, k)
		}
	}
	return out
}

// Keys are the keys in order.
func (r Requests) Keys() []string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ScrapeAPIServer reads the API server's /metrics with cfg's credentials.
func ScrapeAPIServer(ctx context.Context, cfg *rest.Config) (Families, error) {
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+"/metrics", http.NoBody)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scraping the API server: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scraping the API server: %s", resp.Status)
	}
	return ParseFamilies(resp.Body)
}

// APIServerRequests reads apiserver_request_total from a scrape; requests
// to non-resource paths (discovery, /metrics) are left out.
func APIServerRequests(f Families) Requests {
	out := Requests{}
	for _, m := range f["apiserver_request_total"].GetMetric() {
		verb, res, sub := label(m, "verb"), label(m, "resource"), label(m, "subresource")
		if res == "" || verb == "WATCH" || verb == "WATCHLIST" || verb == "CONNECT" {
			continue
		}
		out[key(verb, res, sub)] += m.GetCounter().GetValue()
	}
	return out
}

func key(verb, resource, sub string) string {
	if sub != "" {
		resource += "/" + sub
	}
	return verb + " " + resource
}

// Counter counts the requests one client sends, keyed as the API server
// counts them, so the harness can take its own requests and the stand-ins'
// out of the API server's figures.
type Counter struct {
	mu     sync.Mutex
	counts Requests
}

// Wrap is a rest.Config WrapTransport.
func (c *Counter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if k, ok := requestKey(req.Method, req.URL, req.Header.Get("Content-Type")); ok {
			c.mu.Lock()
			if c.counts == nil {
				c.counts = Requests{}
			}
			c.counts[k]++
			c.mu.Unlock()
		}
		return resp, err
	})
}

// Snapshot copies the counts so far.
func (c *Counter) Snapshot() Requests {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := Requests{}
	for k, v := range c.counts {
		out[k] = v
	}
	return out
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// requestKey maps a request to the API server's verb and resource labels:
// /api/v1[/namespaces/<ns>]/<resource>[/<name>[/<subresource>]] and the same
// under /apis/<group>/<version>. Watches and non-resource paths give false.
func requestKey(method string, u *url.URL, contentType string) (string, bool) {
	seg := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case len(seg) >= 3 && seg[0] == "api":
		seg = seg[2:]
	case len(seg) >= 4 && seg[0] == "apis":
		seg = seg[3:]
	default:
		return "", false
	}
	// A namespaced path, unless it is a namespace's own subresource.
	if len(seg) >= 3 && seg[0] == "namespaces" && (len(seg) > 3 || (seg[2] != "status" && seg[2] != "finalize")) {
		seg = seg[2:]
	}
	var res, name, sub string
	res = seg[0]
	if len(seg) > 1 {
		name = seg[1]
	}
	if len(seg) > 2 {
		sub = seg[2]
	}
	verb := method
	switch method {
	case http.MethodGet:
		switch {
		case u.Query().Get("watch") == "true" || u.Query().Get("watch") == "1":
			return "", false
		case name == "":
			verb = "LIST"
		}
	case http.MethodPatch:
		if strings.HasPrefix(contentType, "application/apply-patch") {
			verb = "APPLY"
		}
	case http.MethodDelete:
		if name == "" {
			verb = "DELETECOLLECTION"
		}
	}
	return key(verb, res, sub), true
}
