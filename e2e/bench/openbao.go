package bench

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
)

// openBaoStandIn is NOT OpenBao: it answers, over TLS on loopback and at
// once, the three calls with which the Barbican operator checks a brownfield
// store on every store pass (barbican-api.md §2.5): an AppRole login, which
// it grants for its one role-id/secret-id pair only (400 otherwise, as
// OpenBao answers a wrong pair); capabilities-self, which lists every
// capability for a token it issued and not yet revoked (403 otherwise); and
// revoke-self. Anything else is 404. The bench measures the operator's
// cost, not a server's, as with its other stand-ins.
type openBaoStandIn struct {
	srv              *httptest.Server
	roleID, secretID string
	// caPEM is the server's self-signed certificate, the store's CA bundle.
	caPEM []byte

	mu     sync.Mutex
	tokens map[string]bool
	// logins counts the granted logins.
	logins atomic.Int64
}

// baoTokenHeader carries a call's token (the OpenBao API's name).
const baoTokenHeader = "X-Vault-Token"

// startOpenBaoStandIn serves the stand-in until the process ends.
func startOpenBaoStandIn() *openBaoStandIn {
	b := &openBaoStandIn{roleID: "bench-role", secretID: "bench-secret-id", tokens: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /v1/auth/approle/login", b.login)
	mux.HandleFunc("POST /v1/sys/capabilities-self", b.capabilities)
	mux.HandleFunc("PUT /v1/auth/token/revoke-self", b.revoke)
	b.srv = httptest.NewTLSServer(mux)
	b.caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: b.srv.Certificate().Raw})
	return b
}

// URL is the server's https base URL.
func (b *openBaoStandIn) URL() string { return b.srv.URL }

// liveTokens is how many issued tokens were not revoked.
func (b *openBaoStandIn) liveTokens() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.tokens)
}

func (b *openBaoStandIn) login(w http.ResponseWriter, r *http.Request) {
	var pair struct {
		RoleID   string `json:"role_id"`
		SecretID string `json:"secret_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&pair); err != nil || pair.RoleID != b.roleID || pair.SecretID != b.secretID {
		baoError(w, http.StatusBadRequest, "invalid role or secret ID")
		return
	}
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	token := "s." + hex.EncodeToString(raw)
	b.mu.Lock()
	b.tokens[token] = true
	b.mu.Unlock()
	b.logins.Add(1)
	writeJSON(w, map[string]any{"auth": map[string]any{"client_token": token, "renewable": false, "lease_duration": 3600}}, nil)
}

func (b *openBaoStandIn) capabilities(w http.ResponseWriter, r *http.Request) {
	if !b.valid(r) {
		baoError(w, http.StatusForbidden, "permission denied")
		return
	}
	all := []string{"create", "read", "update", "delete", "list"}
	writeJSON(w, map[string]any{"capabilities": all, "data": map[string]any{"capabilities": all}}, nil)
}

func (b *openBaoStandIn) revoke(w http.ResponseWriter, r *http.Request) {
	token := r.Header.Get(baoTokenHeader)
	b.mu.Lock()
	ok := b.tokens[token]
	delete(b.tokens, token)
	b.mu.Unlock()
	if !ok {
		baoError(w, http.StatusForbidden, "permission denied")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (b *openBaoStandIn) valid(r *http.Request) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokens[r.Header.Get(baoTokenHeader)]
}

// baoError answers as OpenBao does: {"errors": [msg]}.
func baoError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string][]string{"errors": {msg}})
}
