package placement_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// TestReleasesReachReady: for each release the operator supports, the
// minimal CR's db-sync Job migrates an empty database, the Deployment's
// command serves the API, the operator's own probe turns PlacementAPIReady
// True against it, and an authenticated round trip through the rendered
// [keystone_authtoken] works.
func TestReleasesReachReady(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, "ready-"+strings.ReplaceAll(release, ".", "-"), release, nil)
			a := s.upToReady()

			// The version document, and the operator's probe code on it.
			status, body := call(t, http.MethodGet, a.URL, "", nil)
			if status != http.StatusOK || !strings.Contains(body, `"versions"`) {
				t.Fatalf("GET / = %d %s, want 200 with the version document", status, body)
			}
			res, err := probe.NewCache().Check(t.Context(), &http.Client{}, types.NamespacedName{Namespace: s.ns, Name: s.name}, "uid", a.URL, false)
			if err != nil || !res.Healthy {
				t.Fatalf("operator probe = %+v, %v; want healthy", res, err)
			}

			// Without a token the API refuses.
			if status, body := call(t, http.MethodGet, a.URL+"resource_providers", "", nil); status != http.StatusUnauthorized {
				t.Fatalf("GET /resource_providers without a token = %d %s, want 401", status, body)
			}
			token, err := env.Keystone.AdminToken()
			poll.Must(t, err)
			uuid := createProvider(t, a, token, "rp-"+release)
			inv := map[string]any{"resource_provider_generation": 0, "inventories": map[string]any{
				"VCPU":      map[string]any{"total": 8, "allocation_ratio": 16.0},
				"MEMORY_MB": map[string]any{"total": 16384, "reserved": 512},
			}}
			if status, body := call(t, http.MethodPut, a.URL+"resource_providers/"+uuid+"/inventories", token, inv); status != http.StatusOK {
				t.Fatalf("PUT inventories = %d %s", status, body)
			}
			status, body = call(t, http.MethodGet, a.URL+"resource_providers/"+uuid+"/inventories", token, nil)
			var got struct {
				Inventories map[string]struct {
					Total           int     `json:"total"`
					Reserved        int     `json:"reserved"`
					AllocationRatio float64 `json:"allocation_ratio"`
				} `json:"inventories"`
			}
			if status != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil {
				t.Fatalf("GET inventories = %d %s", status, body)
			}
			if v, m := got.Inventories["VCPU"], got.Inventories["MEMORY_MB"]; v.Total != 8 || v.AllocationRatio != 16 || m.Total != 16384 || m.Reserved != 512 {
				t.Fatalf("inventories read back = %+v", got.Inventories)
			}
		})
	}
}

// createProvider creates a resource provider and returns its uuid.
func createProvider(t *testing.T, a *api, token, name string) string {
	t.Helper()
	status, body := call(t, http.MethodPost, a.URL+"resource_providers", token, map[string]any{"name": name})
	var rp struct {
		UUID string `json:"uuid"`
	}
	if status != http.StatusOK || json.Unmarshal([]byte(body), &rp) != nil || rp.UUID == "" {
		t.Fatalf("POST /resource_providers = %d %s", status, body)
	}
	return rp.UUID
}

// call sends one request with microversion 1.20 (POST returns the
// provider) and returns the status and body.
func call(t *testing.T, method, url, token string, body any) (int, string) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		poll.Must(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, r)
	poll.Must(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("OpenStack-API-Version", "placement 1.20")
	if token != "" {
		req.Header.Set("X-Auth-Token", token)
	}
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	poll.Must(t, err)
	return resp.StatusCode, string(b)
}
