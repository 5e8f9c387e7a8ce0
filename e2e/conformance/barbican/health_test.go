package barbican_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// /healthcheck, the operator's probe, answers from the API process alone:
// with the database account locked and its connections gone, it still
// answers 200 while a request that needs the database fails; once the
// account is back, the same request succeeds again. So a database outage
// does not turn the pods unready and restart them.
func TestHealthcheckDoesNotNeedTheDatabase(t *testing.T) {
	s := newSite(t, "health", env.Releases[len(env.Releases)-1], 0, nil)
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := keyManager{harness.Client{T: t, URL: a.URL, Token: token}}
	anonymous := keyManager{harness.Client{T: t, URL: a.URL}}
	api.Expect(http.StatusOK, http.MethodGet, "v1/secrets", nil, nil)

	account := fmt.Sprintf("'%s'@'127.0.0.1'", s.DBUser)
	_, err = env.DB.Query("ALTER USER " + account + " ACCOUNT LOCK")
	poll.Must(t, err)
	unlocked := false
	unlock := func() {
		if !unlocked {
			_, err := env.DB.Query("ALTER USER " + account + " ACCOUNT UNLOCK")
			poll.Must(t, err)
			unlocked = true
		}
	}
	defer unlock()
	// Pooled connections outlive the lock: end them.
	poll.Until(t, time.Minute, func() error {
		ids, err := env.DB.Query("SELECT id FROM information_schema.processlist WHERE user = '" + s.DBUser + "'")
		if err != nil {
			return err
		}
		for _, id := range strings.Fields(ids) {
			_, _ = env.DB.Query("KILL " + id)
		}
		if resp, out := api.Do(http.MethodGet, "v1/secrets", nil, nil); resp.StatusCode < 500 {
			return fmt.Errorf("with the account locked GET v1/secrets answered %d: %s", resp.StatusCode, out)
		}
		return nil
	})
	anonymous.Expect(http.StatusOK, http.MethodGet, "healthcheck", nil, nil)

	unlock()
	poll.Until(t, time.Minute, func() error {
		if resp, out := api.Do(http.MethodGet, "v1/secrets", nil, nil); resp.StatusCode != http.StatusOK {
			return fmt.Errorf("after the unlock GET v1/secrets answered %d: %s", resp.StatusCode, out)
		}
		return nil
	})
}
