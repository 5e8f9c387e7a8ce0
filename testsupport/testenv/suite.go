package testenv

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/dialer"
)

// Suite is what an operator's controller suite shares with the others: the
// test client of the real API server, the write counter of the manager's
// transport, and a dump of the CRs printed when a wait times out.
type Suite struct {
	Client client.Client
	Writes *WriteCounter
	// Dump describes the state worth seeing when a wait fails.
	Dump func() string
	// Timeout bounds each wait; 30 s when zero.
	Timeout time.Duration
	// Resolve is the manager's --resolve table: a test maps the in-cluster
	// names the operator dials to its loopback servers.
	Resolve dialer.Table

	nsCounter atomic.Int64
}

// Must fails the test on err.
func Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Namespace creates a fresh namespace named after the test.
func (s *Suite) Namespace(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%s", s.nsCounter.Add(1), strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	if len(name) > 60 {
		name = name[:60]
	}
	name = strings.TrimRight(strings.ReplaceAll(name, "_", "-"), "-")
	Must(t, s.Client.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}))
	return name
}

// Eventually polls f until it returns nil; past the timeout the test fails
// with f's last error and the dump.
func (s *Suite) Eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		if err = f(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	dump := ""
	if s.Dump != nil {
		dump = s.Dump()
	}
	t.Fatalf("%s: %v\n%s", what, err, dump)
}

// Inputs creates the default store (Ready) and a Ready MariaDB "mariadb";
// secrets maps credential Secret names to their data.
func (s *Suite) Inputs(t *testing.T, ns string, secrets map[string]map[string]string) {
	t.Helper()
	ctx := context.Background()
	s.Eventually(t, "default store Ready", func() error {
		return SecretStore(ctx, s.Client, "", serviceapi.DefaultSecretStoreName, true)
	})
	for name, data := range secrets {
		s.Secret(t, ns, name, data)
	}
	Must(t, MariaDB(ctx, s.Client, ns, "mariadb", true))
}

// Secret creates a Secret with string data.
func (s *Suite) Secret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	Must(t, s.Client.Create(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: data}))
}

// WaitCondition waits until obj (read into obj) carries condition condType
// with status and reason, stamped with obj's generation; conds returns
// obj's conditions.
func (s *Suite) WaitCondition(t *testing.T, obj client.Object, conds func() []metav1.Condition, condType string, status metav1.ConditionStatus, reason string) {
	t.Helper()
	s.Eventually(t, fmt.Sprintf("%s %s=%s/%s", obj.GetName(), condType, status, reason), func() error {
		if err := s.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		c := meta.FindStatusCondition(conds(), condType)
		if c == nil {
			return fmt.Errorf("no condition %s in %v", condType, conds())
		}
		if c.Status != status || c.Reason != reason {
			return fmt.Errorf("condition is %s/%s: %s", c.Status, c.Reason, c.Message)
		}
		if c.ObservedGeneration != obj.GetGeneration() {
			return fmt.Errorf("condition observed generation %d, object %d", c.ObservedGeneration, obj.GetGeneration())
		}
		return nil
	})
}

// ProvisionDatabase marks the MariaDB Database, User and Grant name Ready once they exist.
func (s *Suite) ProvisionDatabase(t *testing.T, ns, name string) {
	t.Helper()
	ctx := context.Background()
	for _, obj := range []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}} {
		obj.SetNamespace(ns)
		obj.SetName(name)
		s.Eventually(t, fmt.Sprintf("%T ready", obj), func() error { return SQLReady(ctx, s.Client, obj) })
	}
}

// FinishJob completes (or fails) the Job job once it exists.
func (s *Suite) FinishJob(t *testing.T, ns, job string, succeeded bool) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: job}
	s.Eventually(t, "Job "+job+" finished", func() error { return JobFinished(context.Background(), s.Client, key, succeeded) })
}

// RollOut reports the Deployment fully rolled out and Available.
func (s *Suite) RollOut(t *testing.T, ns, name string) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name}
	s.Eventually(t, "Deployment available", func() error { return DeploymentAvailable(context.Background(), s.Client, key) })
}

// RollOutAfter waits for the operator to write the Deployment past
// generation gen, then reports the rollout done.
func (s *Suite) RollOutAfter(t *testing.T, ns, name string, gen int64) {
	t.Helper()
	s.Eventually(t, "Deployment rewritten", func() error {
		var d appsv1.Deployment
		if err := s.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &d); err != nil {
			return err
		}
		if d.Generation <= gen {
			return fmt.Errorf("generation still %d", d.Generation)
		}
		return nil
	})
	s.RollOut(t, ns, name)
}

// EventReasons counts the reasons of the events recorded on the object name.
func (s *Suite) EventReasons(t *testing.T, ns, name string) map[string]int {
	t.Helper()
	var list corev1.EventList
	Must(t, s.Client.List(context.Background(), &list, client.InNamespace(ns)))
	out := map[string]int{}
	for _, e := range list.Items {
		if e.InvolvedObject.Name == name {
			out[e.Reason]++
		}
	}
	return out
}

// FakeAPI is a local HTTP stand-in for a service API's health endpoint.
func FakeAPI(t *testing.T, status int, delay time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if delay > 0 {
			time.Sleep(delay)
		}
		w.WriteHeader(status)
		_, _ = fmt.Fprint(w, `{"status": "simulated"}`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// WriteCounter counts the mutating requests a manager sends, by verb and
// path: wrap its rest.Config's transport with Wrap.
type WriteCounter struct {
	mu     sync.Mutex
	counts map[string]int
	total  atomic.Int64
}

// Wrap counts the requests rt sends.
func (w *WriteCounter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		switch req.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			w.mu.Lock()
			if w.counts == nil {
				w.counts = map[string]int{}
			}
			w.counts[req.Method+" "+req.URL.Path]++
			w.mu.Unlock()
			w.total.Add(1)
		}
		return rt.RoundTrip(req)
	})
}

// Snapshot copies the counts.
func (w *WriteCounter) Snapshot() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for k, v := range w.counts {
		out[k] = v
	}
	return out
}

// Total is the number of writes counted.
func (w *WriteCounter) Total() int64 { return w.total.Load() }

// WritesIn lists the writes to namespace ns between two snapshots.
func WritesIn(before, after map[string]int, ns string) []string {
	var out []string
	for k, v := range after {
		if v != before[k] && strings.Contains(k, "/namespaces/"+ns+"/") {
			out = append(out, fmt.Sprintf("%s (%d times)", k, v-before[k]))
		}
	}
	return out
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
