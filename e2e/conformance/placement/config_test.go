package placement_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// An oslo.log option the operator does not own: when it reaches the
// service, every log line placement writes carries the marker.
const logMarker = "CONFORMANCE-MARK"

// TestConfigChangeReachesServiceOnRestart: an extraConfig change yields a
// new content-addressed ConfigMap, a re-run db-sync and a new pod template;
// the service started from that template runs with the new option.
func TestConfigChangeReachesServiceOnRestart(t *testing.T) {
	s := newSite(t, "config-change", "2025.2", nil)
	a := s.upToReady()
	before := s.deployment("")
	oldCM := configMapOf(before)
	request(t, a)
	if strings.Contains(a.Proc.Log(), logMarker) {
		t.Fatal("marker logged before the option was set")
	}
	oldJob := s.job().UID

	s.update(func(p *placementv1.Placement) {
		p.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {
			"logging_context_format_string": logMarker + " %(levelname)s %(name)s %(message)s",
			"logging_default_format_string": logMarker + " %(levelname)s %(name)s %(message)s",
		}}
	})
	s.syncDatabaseAfter(oldJob)
	after := s.deployment(oldCM)
	newCM := configMapOf(after)
	var cm corev1.ConfigMap
	poll.Must(t, env.K8s.Get(t.Context(), client.ObjectKey{Namespace: s.ns, Name: newCM}, &cm))
	if !strings.Contains(cm.Data["placement.conf"], logMarker) {
		t.Fatalf("new ConfigMap %s lacks the option:\n%s", newCM, cm.Data["placement.conf"])
	}

	// The running process keeps its old configuration until restarted.
	request(t, a)
	if strings.Contains(a.Proc.Log(), logMarker) {
		t.Fatal("the old process picked up the new option without a restart")
	}
	if _, err := a.Container.StopLikeKubelet(a.Container.Dir, a.Proc); err != nil {
		t.Fatal(err)
	}
	b := s.startAPI(after)
	s.ready(b)
	request(t, b)
	if !strings.Contains(b.Proc.Log(), logMarker) {
		t.Fatalf("the restarted service does not log with the new format:\n%s", b.Proc.Log())
	}
}

// TestJSONLogging: a CR asking for JSON logs gets a logging.conf the
// service loads; its log records are JSON objects.
func TestJSONLogging(t *testing.T) {
	s := newSite(t, "json-logging", "2026.1", func(p *placementv1.Placement) {
		p.Spec.Logging = &serviceapi.LoggingSpec{Format: serviceapi.LogFormatJSON, Level: "INFO"}
	})
	a := s.upToReady()
	request(t, a)
	records := 0
	sc := bufio.NewScanner(strings.NewReader(a.Proc.Log()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line is not JSON: %v\n%s", err, line)
		}
		if _, ok := rec["levelname"]; ok {
			records++
		}
	}
	if records == 0 {
		t.Fatalf("no JSON log record from the service:\n%s", a.Proc.Log())
	}
}

// TestPolicyOverrides: rules from the CR reach the service through the
// rendered policy.yaml.
func TestPolicyOverrides(t *testing.T) {
	s := newSite(t, "policy", "2025.2", func(p *placementv1.Placement) {
		p.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{Rules: map[string]string{"placement:resource_providers:list": "!"}}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	createProvider(t, a, token, "rp-policy")
	if status, body := call(t, http.MethodGet, a.URL+"resource_providers", token, nil); status != http.StatusForbidden {
		t.Fatalf("GET /resource_providers with the rule set to \"!\" = %d %s, want 403", status, body)
	}
}

// request sends one authenticated request, so the service logs.
func request(t *testing.T, a *api) {
	t.Helper()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	if status, body := call(t, http.MethodGet, a.URL+"resource_providers", token, nil); status != http.StatusOK {
		t.Fatalf("GET /resource_providers = %d %s", status, body)
	}
}

// syncDatabaseAfter waits for the Job that replaces the one with UID old,
// runs it and reports it finished.
func (s *site) syncDatabaseAfter(old types.UID) {
	s.t.Helper()
	poll.Until(s.t, waitLong, func() error {
		if j := s.job(); j.UID == old {
			return errSameJob
		}
		return nil
	})
	s.syncDatabase()
}

var errSameJob = errors.New("db-sync Job not replaced yet")
