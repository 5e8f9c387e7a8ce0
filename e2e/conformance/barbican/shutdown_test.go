package barbican_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// answer is one request of the load sent across a stop.
type answer struct {
	at     time.Duration // after the stop began
	status int           // 0: no answer
}

// The pod's stop as the kubelet does it (the rendered preStop hook, then
// SIGTERM, SIGKILL after the grace period), with requests arriving back to
// back all the while: every request sent in the preStop window but its last second
// succeeds, and barbican-api exits on SIGTERM well within the grace period,
// in both paste layouts.
func TestRequestsDuringTheDrainWindowSucceed(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, "drain-"+strings.ReplaceAll(release, ".", "-"), release, 0, nil)
			a := s.upToReady()
			window := preStopSleep(t, s)
			token, err := env.Keystone.AdminToken()
			poll.Must(t, err)
			c := &http.Client{Timeout: 10 * time.Second}

			start := time.Now()
			stopped := make(chan error, 1)
			go func() {
				_, err := a.Container.StopLikeKubelet(a.Container.Dir, a.Proc)
				stopped <- err
			}()
			var answers []answer
			var stopErr error
			for done := false; !done; {
				select {
				case stopErr = <-stopped:
					done = true
					continue
				default:
				}
				req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, a.URL+"v1/secrets", nil)
				poll.Must(t, err)
				req.Header.Set("X-Auth-Token", token)
				at, status := time.Since(start), 0
				if resp, err := c.Do(req); err == nil {
					status = resp.StatusCode
					_ = resp.Body.Close()
				}
				answers = append(answers, answer{at: at, status: status})
			}
			if stopErr != nil {
				t.Errorf("stop: %v", stopErr)
			}
			inWindow := 0
			for _, an := range answers {
				if an.at < window-time.Second {
					inWindow++
					if an.status != http.StatusOK {
						t.Errorf("request at %s of the %s preStop window answered %d", an.at.Round(time.Millisecond), window, an.status)
					}
				}
			}
			if inWindow < 3 {
				t.Fatalf("only %d requests in the preStop window: %+v", inWindow, answers)
			}
			if !a.Proc.Exited() {
				t.Fatal("barbican-api still runs after the stop")
			}
			t.Logf("%d requests in the %s window, all answered 200; stopped after %s", inWindow, window, time.Since(start).Round(time.Millisecond))
		})
	}
}

// preStopSleep is the sleep of the Deployment's rendered preStop hook.
func preStopSleep(t *testing.T, s *site) time.Duration {
	t.Helper()
	d := env.Deployment(t, s.key(), "")
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name != "barbican-api" || c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Exec == nil {
			continue
		}
		argv := c.Lifecycle.PreStop.Exec.Command
		if secs, ok := strings.CutPrefix(argv[len(argv)-1], "sleep "); ok {
			n, err := strconv.Atoi(secs)
			poll.Must(t, err)
			return time.Duration(n) * time.Second
		}
	}
	t.Fatal("the barbican-api container has no preStop sleep")
	return 0
}
