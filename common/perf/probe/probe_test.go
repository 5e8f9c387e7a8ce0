package probe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

var key = types.NamespacedName{Namespace: "openstack", Name: "placement"}

// server answers status with body and counts hits.
func server(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(status)
		_, _ = fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// clock is a settable Now hook.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newTestCache() (*Cache, *clock) {
	clk := &clock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCache()
	c.Now = clk.Now
	return c, clk
}

func TestCheck_HealthyIsCached(t *testing.T) {
	srv, hits := server(t, http.StatusOK, "ok")
	c, clk := newTestCache()
	ctx := context.Background()

	type call struct {
		name        string
		advance     time.Duration
		uid         types.UID
		path        string
		alreadyTrue bool
		wantHits    int32
	}
	calls := []call{
		{name: "first probe hits the server", uid: "u1", wantHits: 1},
		{name: "cached when already True", uid: "u1", alreadyTrue: true, wantHits: 1},
		{name: "not cached when condition not True", uid: "u1", wantHits: 2},
		{name: "cached just before TTL", advance: DefaultTTL - time.Second, uid: "u1", alreadyTrue: true, wantHits: 2},
		{name: "TTL expired", advance: time.Second, uid: "u1", alreadyTrue: true, wantHits: 3},
		{name: "fresh entry cached again", uid: "u1", alreadyTrue: true, wantHits: 3},
		{name: "UID change bypasses cache", uid: "u2", alreadyTrue: true, wantHits: 4},
		{name: "URL change bypasses cache", uid: "u2", path: "/other", alreadyTrue: true, wantHits: 5},
	}
	var prev int32
	for _, cl := range calls {
		clk.now = clk.now.Add(cl.advance)
		url := srv.URL + cl.path
		res, err := c.Check(ctx, srv.Client(), key, cl.uid, url, cl.alreadyTrue)
		if err != nil {
			t.Fatalf("%s: %v", cl.name, err)
		}
		if !res.Healthy || res.Reason != conditions.ReasonAPIHealthy || res.Message != "API answered "+url {
			t.Errorf("%s: result = %+v, want healthy", cl.name, res)
		}
		if got := hits.Load(); got != cl.wantHits {
			t.Errorf("%s: server hits = %d, want %d", cl.name, got, cl.wantHits)
		}
		if sent := hits.Load() != prev; res.Sent != sent {
			t.Errorf("%s: Sent = %v, but the server was hit: %v", cl.name, res.Sent, sent)
		}
		prev = hits.Load()
		if c.Len() != 1 {
			t.Errorf("%s: Len() = %d, want 1 entry per CR", cl.name, c.Len())
		}
	}
}

func TestCheck_NonSuccessIsUnhealthyAndEvicts(t *testing.T) {
	long := strings.Repeat("error line\twith\r\nwhitespace ", 60)
	tests := []struct {
		name   string
		status int
		body   string
		want   string // expected body part of the message; "" derives from long
	}{
		{name: "503 with a long multi-line body", status: http.StatusServiceUnavailable, body: long},
		{name: "404 short body", status: http.StatusNotFound, body: "  not\nfound \n", want: "not found"},
		{name: "301 is not 2xx", status: http.StatusMovedPermanently, body: "moved", want: "moved"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			okSrv, _ := server(t, http.StatusOK, "ok")
			badSrv, _ := server(t, tt.status, tt.body)
			c, _ := newTestCache()
			if _, err := c.Check(context.Background(), okSrv.Client(), key, "u1", okSrv.URL, false); err != nil || c.Len() != 1 {
				t.Fatalf("priming the cache: err %v, Len %d", err, c.Len())
			}
			res, err := c.Check(context.Background(), badSrv.Client(), key, "u1", badSrv.URL, true)
			if err != nil {
				t.Fatal(err)
			}
			if res.Healthy || res.Reason != conditions.ReasonAPIUnhealthy {
				t.Fatalf("result = %+v, want APIUnhealthy", res)
			}
			prefix := fmt.Sprintf("GET %s returned %d: ", badSrv.URL, tt.status)
			if !strings.HasPrefix(res.Message, prefix) {
				t.Fatalf("message %q does not start with %q", res.Message, prefix)
			}
			body := strings.TrimPrefix(res.Message, prefix)
			if len(body) > 256 || strings.ContainsAny(body, "\r\n\t") {
				t.Errorf("body part (%d bytes) is not one line of at most 256 bytes: %q", len(body), body)
			}
			want := tt.want
			if want == "" {
				want = strings.Join(strings.Fields(long[:256]), " ")
			}
			if body != want {
				t.Errorf("body part = %q, want %q", body, want)
			}
			if c.Len() != 0 {
				t.Errorf("Len() = %d, want the entry evicted", c.Len())
			}
		})
	}
}

func TestCheck_TransportFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + ln.Addr().String() + "/"
	_ = ln.Close()

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(slow.Close)

	// The DNS case asks a local DNS server that answers NXDOMAIN, so it
	// neither depends on the machine's resolver nor races the timeout.
	nxdomain := &http.Client{Transport: &http.Transport{
		DialContext: (&net.Dialer{Resolver: nxdomainResolver(t)}).DialContext,
	}}
	tests := []struct {
		name       string
		url        string
		client     *http.Client
		timeout    time.Duration
		wantReason string
	}{
		{name: "connection refused", url: closedURL, wantReason: conditions.ReasonConnectionFailed},
		{name: "timeout", url: slow.URL, timeout: 100 * time.Millisecond, wantReason: conditions.ReasonHealthCheckTimeout},
		{name: "DNS failure", url: "http://placement-api.invalid:8778/", client: nxdomain, wantReason: conditions.ReasonEndpointNotReady},
		{name: "unparseable URL", url: "http://[::1", wantReason: conditions.ReasonHealthCheckFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			okSrv, _ := server(t, http.StatusOK, "ok")
			c, _ := newTestCache()
			c.Timeout = 10 * time.Second
			if tt.timeout != 0 {
				c.Timeout = tt.timeout
			}
			if _, err := c.Check(context.Background(), okSrv.Client(), key, "u1", okSrv.URL, false); err != nil {
				t.Fatal(err)
			}
			hc := &http.Client{}
			if tt.client != nil {
				hc = tt.client
			}
			res, err := c.Check(context.Background(), hc, key, "u1", tt.url, true)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if res.Healthy || res.Reason != tt.wantReason || res.Message == "" {
				t.Errorf("result = %+v, want %s with a message", res, tt.wantReason)
			}
			if c.Len() != 0 {
				t.Errorf("Len() = %d, want the entry evicted", c.Len())
			}
		})
	}
}

func TestCheck_CancelledParentContextIsReturned(t *testing.T) {
	srv, _ := server(t, http.StatusOK, "ok")
	c, _ := newTestCache()
	if _, err := c.Check(context.Background(), srv.Client(), key, "u1", srv.URL, false); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := c.Check(ctx, srv.Client(), key, "u1", srv.URL, false)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Check() = %+v, %v; want context.Canceled", res, err)
	}
	if res.Reason != "" || c.Len() != 1 {
		t.Errorf("result %+v, Len %d; want no reason and the cache untouched", res, c.Len())
	}
}

func TestEvictAndLen(t *testing.T) {
	srv, _ := server(t, http.StatusOK, "ok")
	c, _ := newTestCache()
	other := types.NamespacedName{Namespace: "openstack", Name: "other"}
	for _, k := range []types.NamespacedName{key, other} {
		if _, err := c.Check(context.Background(), srv.Client(), k, "u", srv.URL, false); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		evict types.NamespacedName
		want  int
	}{
		{evict: types.NamespacedName{Namespace: "x", Name: "unknown"}, want: 2},
		{evict: key, want: 1},
		{evict: key, want: 1},
		{evict: other, want: 0},
	}
	if c.Len() != 2 {
		t.Fatalf("Len() = %d, want 2", c.Len())
	}
	for _, s := range steps {
		c.Evict(s.evict)
		if c.Len() != s.want {
			t.Errorf("after Evict(%s) Len() = %d, want %d", s.evict, c.Len(), s.want)
		}
	}
	var zero Cache
	zero.Evict(key)
	if zero.Len() != 0 {
		t.Error("zero Cache is not empty")
	}
}

func TestClassify(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "deadline", err: fmt.Errorf("get: %w", context.DeadlineExceeded), want: conditions.ReasonHealthCheckTimeout},
		{name: "net timeout", err: &net.OpError{Op: "read", Err: timeoutErr{}}, want: conditions.ReasonHealthCheckTimeout},
		{name: "dns", err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}, want: conditions.ReasonEndpointNotReady},
		{name: "refused", err: refused, want: conditions.ReasonConnectionFailed},
		{name: "other", err: errors.New("tls: bad certificate"), want: conditions.ReasonHealthCheckFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.err)
			if got.Healthy || got.Reason != tt.want || got.Message != tt.err.Error() {
				t.Errorf("Classify() = %+v, want %s", got, tt.want)
			}
		})
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string { return "i/o timeout" }
func (timeoutErr) Timeout() bool { return true }

// nxdomainResolver is Go's own resolver talking DNS over UDP to a server on
// loopback that answers every query with NXDOMAIN.
func nxdomainResolver(t *testing.T) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 512)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			// The query's ID and question, flagged as a response (QR) with
			// recursion available and RCODE 3 (NXDOMAIN), no records.
			resp := append([]byte{}, buf[:n]...)
			resp[2] = 0x80 | resp[2]&0x01 // QR, keep RD
			resp[3] = 0x80 | 0x03         // RA, NXDOMAIN
			for i := 6; i < 12; i++ {
				resp[i] = 0 // no answer, authority or additional records
			}
			_, _ = pc.WriteTo(resp, addr)
		}
	}()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
}
