package placement_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestTunedUWSGIStopsLikeAPod: the uwsgi tuning of the CR (keep-alive
// timeout, harakiri, processes, threads) is accepted by the real uwsgi;
// stopped the way the kubelet stops the pod (preStop sleep, then SIGTERM),
// a request in flight when the stop begins completes, and the process exits
// on SIGTERM well within the grace period.
func TestTunedUWSGIStopsLikeAPod(t *testing.T) {
	s := newSite(t, "uwsgi-stop", "2025.2", func(p *placementv1.Placement) {
		p.Spec.APIServer = &placementv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{
			Processes: 2, Threads: 2, Harakiri: new(int32(20)), HTTPKeepAliveTimeout: new(int32(30)),
		}}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)

	// A request whose body is still arriving when the stop begins.
	body := []byte(`{"name": "rp-in-flight"}`)
	pr, pw := io.Pipe()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.URL+"resource_providers", pr)
	poll.Must(t, err)
	req.ContentLength = int64(len(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("OpenStack-API-Version", "placement 1.20")
	req.Header.Set("X-Auth-Token", token)
	type result struct {
		status int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
		if err != nil {
			done <- result{err: err}
			return
		}
		_ = resp.Body.Close()
		done <- result{status: resp.StatusCode}
	}()
	_, err = pw.Write(body[:5])
	poll.Must(t, err)

	stopped := make(chan error, 1)
	var afterTerm time.Duration
	go func() {
		var err error
		afterTerm, err = a.Container.StopLikeKubelet(a.Container.Dir, a.Proc)
		stopped <- err
	}()
	time.Sleep(time.Second) // the preStop hook is sleeping now
	_, err = pw.Write(body[5:])
	poll.Must(t, err)
	poll.Must(t, pw.Close())

	if r := <-done; r.err != nil || r.status != http.StatusOK {
		t.Fatalf("in-flight request: status %d, %v; want 200", r.status, r.err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v\n%s", err, a.Proc.Log())
	}
	if limit := a.Container.Grace / 3; afterTerm > limit {
		t.Fatalf("exited %s after SIGTERM, want well within the %s grace (< %s)", afterTerm, a.Container.Grace, limit)
	}
	if code := a.Proc.ExitCode(); code != 0 {
		t.Fatalf("uwsgi exit code %d after SIGTERM, want 0\n%s", code, a.Proc.Log())
	}
	if !bytes.Contains([]byte(a.Proc.Log()), []byte("rp-in-flight")) && !bytes.Contains([]byte(a.Proc.Log()), []byte("POST /resource_providers")) {
		t.Fatalf("the service did not log the in-flight request:\n%s", a.Proc.Log())
	}
}
