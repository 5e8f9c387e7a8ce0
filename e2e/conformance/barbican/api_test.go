package barbican_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// keyManager is a client of the Key Manager API v1 with a Keystone token.
type keyManager struct{ harness.Client }

// store stores payload as an opaque text secret and returns its ID.
func (c keyManager) store(name, payload string) string {
	c.T.Helper()
	body, _ := json.Marshal(map[string]string{"name": name, "payload": payload, "payload_content_type": "text/plain", "secret_type": "opaque"})
	var created struct {
		SecretRef string `json:"secret_ref"`
	}
	poll.Must(c.T, json.Unmarshal(c.Expect(http.StatusCreated, http.MethodPost, "v1/secrets", bytes.NewReader(body),
		map[string]string{"Content-Type": "application/json"}), &created))
	return path.Base(created.SecretRef)
}

// payload reads a secret's payload.
func (c keyManager) payload(id string) string {
	c.T.Helper()
	return string(c.Expect(http.StatusOK, http.MethodGet, "v1/secrets/"+id+"/payload", nil, map[string]string{"Accept": "text/plain"}))
}

// list lists the IDs of the project's secrets.
func (c keyManager) list() []string {
	c.T.Helper()
	var page struct {
		Secrets []struct {
			SecretRef string `json:"secret_ref"`
		} `json:"secrets"`
	}
	poll.Must(c.T, json.Unmarshal(c.Expect(http.StatusOK, http.MethodGet, "v1/secrets?limit=100", nil, nil), &page))
	var ids []string
	for _, s := range page.Secrets {
		ids = append(ids, path.Base(s.SecretRef))
	}
	return ids
}

// kvKeys lists the keys under the KV v2 mount, read with the root token.
func kvKeys(t *testing.T, srv *openbao.Server) []string {
	t.Helper()
	var out struct {
		Data struct {
			Keys []string `json:"keys"`
		} `json:"data"`
	}
	err := srv.Call(context.Background(), http.MethodGet, openbao.KVMount+"/metadata?list=true", nil, &out)
	if apiErr := (*openbao.APIError)(nil); errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
		return nil
	}
	poll.Must(t, err)
	return out.Data.Keys
}

// kvRecord reads the latest version of key; nil when it has none (deleted).
func kvRecord(t *testing.T, srv *openbao.Server, key string) map[string]any {
	t.Helper()
	var out struct {
		Data struct {
			Data map[string]any `json:"data"`
		} `json:"data"`
	}
	err := srv.Call(context.Background(), http.MethodGet, openbao.KVMount+"/data/"+key, nil, &out)
	if apiErr := (*openbao.APIError)(nil); errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
		return nil
	}
	poll.Must(t, err)
	return out.Data.Data
}

// randomPayload is a payload no other test stores.
func randomPayload(t *testing.T) string {
	b := make([]byte, 12)
	_, err := rand.Read(b)
	poll.Must(t, err)
	return "payload-" + hex.EncodeToString(b)
}

// A secret stored through barbican-api, with the AppRole secret ID the
// operator minted and the config it rendered, lands in the managed
// instance's KV v2 mount: one new key whose record holds the payload; it
// reads back, lists, and deleting it removes the record. /healthcheck
// answers without a token; the API refuses a request without one. Both
// paste layouts (below 2026.1 and from it).
func TestSecretsLandInTheManagedStore(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, "secrets-"+strings.ReplaceAll(release, ".", "-"), release, 0, nil)
			a := s.upToReady()
			anonymous := keyManager{harness.Client{T: t, URL: a.URL}}
			anonymous.Expect(http.StatusOK, http.MethodGet, "healthcheck", nil, nil)
			anonymous.Expect(http.StatusUnauthorized, http.MethodGet, "v1/secrets", nil, nil)

			token, err := env.Keystone.AdminToken()
			poll.Must(t, err)
			api := keyManager{harness.Client{T: t, URL: a.URL, Token: token}}
			before := kvKeys(t, s.vault)
			payload := randomPayload(t)
			id := api.store("conformance", payload)
			if got := api.payload(id); got != payload {
				t.Fatalf("payload of %s: %q, want %q", id, got, payload)
			}
			if ids := api.list(); !slices.Contains(ids, id) {
				t.Errorf("secret list %v lacks %s", ids, id)
			}
			var added []string
			for _, k := range kvKeys(t, s.vault) {
				if !slices.Contains(before, k) {
					added = append(added, k)
				}
			}
			if len(added) != 1 {
				t.Fatalf("KV mount %s gained keys %v, want exactly one", openbao.KVMount, added)
			}
			record := kvRecord(t, s.vault, added[0])
			if v, _ := record["value"].(string); v != hex.EncodeToString([]byte(payload)) {
				t.Fatalf("KV record %s: %v; want the payload, hex-encoded, as value", added[0], record)
			}

			api.Expect(http.StatusNoContent, http.MethodDelete, "v1/secrets/"+id, nil, nil)
			api.Expect(http.StatusNotFound, http.MethodGet, "v1/secrets/"+id, nil, nil)
			if record := kvRecord(t, s.vault, added[0]); record != nil {
				t.Errorf("KV record %s still readable after the delete: %v", added[0], record)
			}
		})
	}
}
