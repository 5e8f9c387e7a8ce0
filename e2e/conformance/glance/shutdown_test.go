package glance_test

import (
	"crypto/rand"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// slowBody streams left random bytes, chunk bytes per tick, so an upload
// is still arriving for about left/chunk ticks. The tick paces the
// client's upload rate (it is the load, not a wait); started is closed once
// the server has taken the first bytes.
type slowBody struct {
	left, chunk int
	tick        time.Duration
	inChunk     int // bytes left of the current chunk
	sent        int
	started     chan struct{}
	announced   bool
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	if b.inChunk == 0 {
		if b.sent > 0 && !b.announced {
			// The first chunk is on the wire: the upload is under way.
			close(b.started)
			b.announced = true
		}
		time.Sleep(b.tick)
		b.inChunk = b.chunk
	}
	n := min(len(p), b.inChunk, b.left)
	_, _ = rand.Read(p[:n])
	b.left -= n
	b.inChunk -= n
	b.sent += n
	return n, nil
}

// What a client uploading an image sees when the pod stops, in both launch
// modes, measured on the real servers (docs/decisions/glance-graceful-stop.md):
// the preStop sleep is the drain window. An upload that ends within it
// completes (204) while the API is being stopped, and the process exits on
// its own well within the grace period. An upload still arriving when
// SIGTERM lands is cut in both modes; the test records what the client saw
// then, so a change of behaviour shows in its log.
func TestUploadDuringTheDrainWindowCompletes(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) { uploadAcrossStop(t, release) })
	}
}

// upload streams size bytes into image id over about d and reports the
// answer on the first channel; the second is closed once the server has
// taken the first chunk.
func upload(t *testing.T, api imageAPI, id string, size int, d time.Duration) (<-chan uploadResult, <-chan struct{}) {
	const chunks = 40
	body := &slowBody{left: size, chunk: size / chunks, tick: d / chunks, started: make(chan struct{})}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, api.URL+"v2/images/"+id+"/file", body)
	poll.Must(t, err)
	req.ContentLength = int64(size)
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("X-Auth-Token", api.Token)
	done := make(chan uploadResult, 1)
	start := time.Now()
	go func() {
		resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
		if err != nil {
			done <- uploadResult{err: err, after: time.Since(start)}
			return
		}
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		done <- uploadResult{status: resp.StatusCode, body: string(b), after: time.Since(start)}
	}()
	return done, body.started
}

type uploadResult struct {
	status int
	body   string
	err    error
	after  time.Duration
}

func uploadAcrossStop(t *testing.T, release string) {
	s := newSite(t, "stop-"+strings.ReplaceAll(release, ".", "-"), release, func(g *glancev1.Glance) {
		g.Spec.Deployment = &serviceapi.DeploymentSpec{PreStopSleepSeconds: new(int64(8))}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}

	// Within the drain window: 4 MiB over ~5 s, the stop beginning 1 s in.
	within, withinStarted := upload(t, api, api.create("within"), 4<<20, 5*time.Second)
	// Beyond it: 4 MiB over ~14 s, SIGTERM landing ~5 s before its end.
	beyond, beyondStarted := upload(t, api, api.create("beyond"), 4<<20, 14*time.Second)
	// The stop begins once both uploads are under way.
	for _, started := range []<-chan struct{}{withinStarted, beyondStarted} {
		select {
		case <-started:
		case <-time.After(harness.WaitLong):
			t.Fatal("an upload did not start")
		}
	}
	afterTerm, stopErr := a.Container.StopLikeKubelet(a.Container.Dir, a.Proc)
	w, b := <-within, <-beyond
	t.Logf("%s: upload within the drain window: %d %v after %s; upload beyond it: %d %v after %s; exited %s after SIGTERM (grace %s)",
		release, w.status, w.err, w.after.Round(time.Millisecond), b.status, b.err, b.after.Round(time.Millisecond),
		afterTerm.Round(time.Millisecond), a.Container.Grace)
	if w.err != nil || w.status != http.StatusNoContent {
		t.Errorf("upload within the drain window: status %d, %v, want 204: %s\n%s", w.status, w.err, w.body, a.Proc.Log())
	}
	if stopErr != nil {
		t.Errorf("stop: %v\n%s", stopErr, a.Proc.Log())
	}
	if limit := a.Container.Grace / 3; afterTerm > limit {
		t.Errorf("exited %s after SIGTERM, want well within the %s grace (< %s)", afterTerm, a.Container.Grace, limit)
	}
}

// TestUWSGIWithoutItsRouterFinishesAnUploadAcrossSIGTERM measures the
// alternative stop of docs/decisions/glance-graceful-stop.md on the real
// uwsgi and glance: the 2026.1 command with the HTTP router replaced by
// workers that serve HTTP themselves (--http-socket, no router keep-alive
// flags) and SIGTERM mapped to uWSGI's graceful stop (--hook-master-start
// "unix_signal:15 gracefully_kill_them_all" instead of --die-on-term). An
// upload still arriving when SIGTERM lands completes (204) and uwsgi exits
// on its own once it has, within the grace period; the rendered command
// cuts that upload (TestUploadDuringTheDrainWindowCompletes).
func TestUWSGIWithoutItsRouterFinishesAnUploadAcrossSIGTERM(t *testing.T) {
	if !slices.Contains(env.Releases, "2026.1") {
		t.Fatalf("the run covers no uWSGI release: %v", env.Releases)
	}
	s := newSite(t, "stop-no-router", "2026.1", func(g *glancev1.Glance) {
		g.Spec.Deployment = &serviceapi.DeploymentSpec{PreStopSleepSeconds: new(int64(2))}
	})
	s.syncDatabase()
	l := s.launch()
	l.Map = func(argv []string, port int, dir string) ([]string, error) {
		mapped, err := localsvc.GlanceAPIUWSGI.Map(argv, port)
		if err != nil {
			return nil, err
		}
		return withoutRouter(mapped), nil
	}
	a := env.StartAPI(t, env.Deployment(t, s.key(), ""), "glance-api", l)
	env.Ready(t, s.glance(), s.key(), a)
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}
	// 4 MiB over ~10 s; SIGTERM lands ~2 s in, after the preStop sleep.
	across, started := upload(t, api, api.create("across"), 4<<20, 10*time.Second)
	select {
	case <-started:
	case <-time.After(harness.WaitLong):
		t.Fatal("the upload did not start")
	}
	afterTerm, stopErr := a.Container.StopLikeKubelet(a.Container.Dir, a.Proc)
	u := <-across
	t.Logf("without the router: upload across SIGTERM: %d %v after %s; exited %s after SIGTERM (grace %s)",
		u.status, u.err, u.after.Round(time.Millisecond), afterTerm.Round(time.Millisecond), a.Container.Grace)
	if u.err != nil || u.status != http.StatusNoContent {
		t.Errorf("upload across SIGTERM: status %d, %v, want 204: %s\n%s", u.status, u.err, u.body, a.Proc.Log())
	}
	if stopErr != nil {
		t.Errorf("stop: %v (killed at the end of the grace period?)\n%s", stopErr, a.Proc.Log())
	}
}

// withoutRouter turns a mapped uwsgi command into the router-less variant
// the test above measures.
func withoutRouter(argv []string) []string {
	var out []string
	for _, a := range argv {
		switch {
		case a == "--http":
			out = append(out, "--http-socket")
		case strings.HasPrefix(a, "--http-keepalive"):
		case a == "--die-on-term":
			out = append(out, "--hook-master-start", "unix_signal:15 gracefully_kill_them_all")
		default:
			out = append(out, a)
		}
	}
	return out
}
