package controller_test

import (
	"fmt"
	"net/http"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// The OpenBao calls of each kind of store pass, as a Recorder between the
// operator and a real server sees them. barbican-api.md §2.5 lists the
// calls exhaustively: a pass makes exactly these, in this order, ends every
// session it opened, and sends the namespace header only for a brownfield
// store that names one.

// call is one OpenBao request: method and path.
type call struct{ method, path string }

var (
	kubeLogin    = call{http.MethodPut, "/v1/auth/kubernetes/login"}
	mountCheck   = call{http.MethodGet, "/v1/sys/mounts/barbican"}
	roleIDRead   = call{http.MethodGet, "/v1/auth/approle/role/barbican/role-id"}
	secretIDMint = call{http.MethodPut, "/v1/auth/approle/role/barbican/secret-id"}
	appRoleLogin = call{http.MethodPut, "/v1/auth/approle/login"}
	capsSelf     = call{http.MethodPost, "/v1/sys/capabilities-self"}
	revokeSelf   = call{http.MethodPut, "/v1/auth/token/revoke-self"}
)

// The shapes of a pass. A managed pass opens the provisioner's session,
// mints (or not), login-probes the pair in a session of its own, ends the
// probe's session and then the provisioner's.
var (
	managedMint = []call{kubeLogin, mountCheck, roleIDRead, secretIDMint, appRoleLogin, revokeSelf, revokeSelf}
	managedKeep = []call{kubeLogin, mountCheck, roleIDRead, appRoleLogin, revokeSelf, revokeSelf}
	brownfieldP = []call{appRoleLogin, capsSelf, revokeSelf}
)

// The first pass of a managed store mints; a later pass over the held pair
// probes it and mints nothing.
func TestManagedStoreCalls_ProxyOnlyRecords(t *testing.T) {
	ctx, ns := withParent(t)
	rec := managedInstance(t, ns, "vault", 0).record(t)
	must(t, k8s.Create(ctx, fixture.ManagedStore(ns, "vault", "barbican", "vault", true)))
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	pokeStore(t, ns, "vault")

	passes := recordedPasses(t, rec, kubeLogin, len(managedKeep))
	for i, p := range passes {
		want := managedKeep
		if i == 0 {
			want = managedMint
		}
		checkPass(t, i, p, want, "", i == len(passes)-1 && i > 1)
		if len(p) == len(want) && !t.Failed() {
			// The probe's session is its own and ends first; the
			// provisioner's session, opened by the Kubernetes login, ends last.
			provisioner := token(p[1])
			if token(p[len(p)-1]) != provisioner || token(p[len(p)-2]) == provisioner {
				t.Errorf("pass %d: the sessions did not end in order (probe's, then the provisioner's)", i)
			}
		}
	}
}

// A brownfield pass logs in with the store's pair, checks its capabilities
// and ends the session, sending the store's namespace on every call.
func TestBrownfieldStoreCalls_ProxyOnlyRecords(t *testing.T) {
	ctx, ns := withParent(t)
	rec := bao(t, ns).Record(t)
	st := fixture.BrownfieldStore(ns, "vault", "barbican", rec.URL, approleSecret, caSecret, true)
	st.Spec.OpenBao.Namespace = "team-a/barbican"
	must(t, k8s.Create(ctx, st))
	waitStore(t, ns, "vault", barbicanv1.ConditionCredentialsReady, metav1.ConditionTrue, barbicanv1.ReasonCredentialsAvailable)
	pokeStore(t, ns, "vault")

	passes := recordedPasses(t, rec, appRoleLogin, len(brownfieldP))
	for i, p := range passes {
		checkPass(t, i, p, brownfieldP, "team-a/barbican", i == len(passes)-1 && i > 1)
		if len(p) == len(brownfieldP) && token(p[1]) != token(p[2]) {
			t.Errorf("pass %d: revoke-self ended another session than the one that checked capabilities", i)
		}
	}
}

// recordedPasses waits until the recorder saw a second pass of at least
// complete calls (or a third pass began), then splits what it saw into passes, each starting at
// start. Nothing may come before the first pass.
func recordedPasses(t *testing.T, rec *openbao.Recorder, start call, complete int) [][]openbao.Request {
	t.Helper()
	var passes [][]openbao.Request
	suite.Eventually(t, "a second store pass recorded", func() error {
		passes = nil
		for i, r := range rec.Seen() {
			switch {
			case callOf(r) == start:
				passes = append(passes, []openbao.Request{r})
			case i == 0:
				return fmt.Errorf("the first call was %s %s, want %s %s", r.Method, r.Path, start.method, start.path)
			default:
				passes[len(passes)-1] = append(passes[len(passes)-1], r)
			}
		}
		if len(passes) < 2 || (len(passes) == 2 && len(passes[1]) < complete) {
			return fmt.Errorf("%d passes recorded", len(passes))
		}
		return nil
	})
	return passes
}

// checkPass compares one pass with want: calls in order, a token on every
// call but the logins, the namespace header as given, no response
// wrapping. partial allows a prefix of want: the pass in flight when the
// recording was read.
func checkPass(t *testing.T, i int, got []openbao.Request, want []call, namespace string, partial bool) {
	t.Helper()
	if len(got) > len(want) || (!partial && len(got) != len(want)) {
		t.Errorf("pass %d made %d calls, want %d: %v", i, len(got), len(want), calls(got))
		return
	}
	var wantNS []string
	if namespace != "" {
		wantNS = []string{namespace}
	}
	for j, r := range got {
		c := callOf(r)
		if c != want[j] {
			t.Errorf("pass %d call %d: %s %s, want %s %s (pass: %v)", i, j, c.method, c.path, want[j].method, want[j].path, calls(got))
			return
		}
		login := c == kubeLogin || c == appRoleLogin
		if login == (token(r) != "") {
			t.Errorf("pass %d call %d (%s): X-Vault-Token set %t", i, j, c.path, token(r) != "")
		}
		if ns := r.Header.Values("X-Vault-Namespace"); fmt.Sprint(ns) != fmt.Sprint(wantNS) {
			t.Errorf("pass %d call %d (%s): X-Vault-Namespace %q, want %q", i, j, c.path, ns, wantNS)
		}
		if w := r.Header.Get("X-Vault-Wrap-TTL"); w != "" {
			t.Errorf("pass %d call %d (%s): asks for response wrapping %q", i, j, c.path, w)
		}
	}
}

func callOf(r openbao.Request) call { return call{r.Method, r.Path} }

func token(r openbao.Request) string { return r.Header.Get("X-Vault-Token") }

func calls(rs []openbao.Request) []call {
	out := make([]call, len(rs))
	for i, r := range rs {
		out[i] = callOf(r)
	}
	return out
}
