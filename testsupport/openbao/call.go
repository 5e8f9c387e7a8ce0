package openbao

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// APIError is a non-2xx answer of the server.
type APIError struct {
	// Method and Path are the request's, Path without /v1/.
	Method, Path string
	// Status is the HTTP status code.
	Status int
	// Errors are the messages of the server's {"errors": [...]} body.
	Errors []string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("vault %s %s: HTTP %d: %s", e.Method, e.Path, e.Status, strings.Join(e.Errors, "; "))
}

// newHTTPClient trusts pool alone and never reads proxy settings: every call
// goes straight to the loopback server.
func newHTTPClient(pool *x509.CertPool) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		},
	}
}

// HTTPClient returns a client that trusts the server's CA alone, for a test
// that talks to the server (or to a proxy in front of it) directly.
func (s *Server) HTTPClient() *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.CAPEM)
	return newHTTPClient(pool)
}

// Call sends one JSON request with the root token; see CallAs.
func (s *Server) Call(ctx context.Context, method, path string, in, out any) error {
	return s.CallAs(ctx, s.RootToken, method, path, in, out)
}

// CallAs sends one request to /v1/<path> with token ("" sends none), the JSON
// encoding of in as body when in is not nil, and decodes a non-empty answer
// into out when out is not nil. A non-2xx answer is an *APIError.
func (s *Server) CallAs(ctx context.Context, token, method, path string, in, out any) error {
	path = strings.TrimPrefix(strings.TrimPrefix(path, "/"), "v1/")
	var body io.Reader
	if in != nil {
		encoded, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(encoded)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.URL+"/v1/"+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("X-Vault-Token", token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return fmt.Errorf("vault %s %s: %w", method, path, err)
	}
	defer resp.Body.Close() //nolint:errcheck
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("vault %s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := &APIError{Method: method, Path: path, Status: resp.StatusCode}
		var decoded struct {
			Errors []string `json:"errors"`
		}
		if json.Unmarshal(data, &decoded) == nil {
			apiErr.Errors = decoded.Errors
		}
		return apiErr
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("vault %s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}
