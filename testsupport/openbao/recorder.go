package openbao

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// Request is one request as a Recorder saw it.
type Request struct {
	Method, Path string
	Header       http.Header
}

// Recorder is a TLS proxy in front of a Server that forwards every request
// unchanged and records its method, path and headers. It presents the
// server's own certificate, so a client that trusts the server (its CA,
// its DNS names) trusts the recorder, and a test can put it between the
// operator and the server without the operator seeing a difference.
type Recorder struct {
	// URL is the recorder's https base URL on loopback.
	URL string
	// Addr is its host:port, for a test's --resolve table.
	Addr string

	mu       sync.Mutex
	requests []Request
}

// Record starts a Recorder in front of s, stopped when the test ends.
func (s *Server) Record(t testing.TB) *Recorder {
	t.Helper()
	target, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := tls.LoadX509KeyPair(s.tls.certFile, s.tls.keyFile)
	if err != nil {
		t.Fatal(err)
	}
	r := &Recorder{}
	forward := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
		Transport: s.HTTPClient().Transport,
	}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.requests = append(r.requests, Request{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone()})
		r.mu.Unlock()
		forward.ServeHTTP(w, req)
	}))
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	ts.StartTLS()
	t.Cleanup(ts.Close)
	r.URL, r.Addr = ts.URL, ts.Listener.Addr().String()
	return r
}

// Take returns the requests recorded so far and forgets them.
func (r *Recorder) Take() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.requests
	r.requests = nil
	return out
}

// Seen returns the requests recorded so far and keeps them.
func (r *Recorder) Seen() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.requests...)
}
