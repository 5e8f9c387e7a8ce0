package glance_test

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestBackendLifecycle walks one Glance through its backends' life on the
// real API server, the chart's webhooks and the real glance-api:
//   - a backend whose credentials Secret is missing waits
//     (WaitingForCredentials) and holds BackendsReady at WaitingForBackends,
//     while the API keeps serving the other two; deleting it restores them;
//   - a third backend is attached (projected, the API rolls and serves it)
//     and detached again;
//   - unsetting the only default gives NoDefaultBackend; making the other
//     backend default flips the store and the Glance turns Ready again.
func TestBackendLifecycle(t *testing.T) {
	s := newSite(t, "2025.2")
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")

	broken := s.backend("broken", s.Name+"-broken", "missing", false)
	poll.Must(t, env.K8s.Create(s.Ctx, broken))
	s.backendCondition("broken", glancev1.ConditionCredentialsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForCredentials)
	c := s.condition(glancev1.ConditionBackendsReady, metav1.ConditionFalse, glancev1.ReasonWaitingForBackends)
	if !strings.Contains(c.Message, "broken") {
		t.Errorf("BackendsReady %q does not name the waiting backend", c.Message)
	}
	s.condition(glancev1.ConditionGlanceAPIReady, metav1.ConditionTrue, "")
	poll.Must(t, env.K8s.Delete(s.Ctx, broken))
	s.condition(glancev1.ConditionBackendsReady, metav1.ConditionTrue, glancev1.ReasonAllBackendsProjected)

	poll.Must(t, env.S3.CreateBucket(s.Ctx, s.Name+"-extra"))
	extra := s.backend("extra", s.Name+"-extra", "s3", false)
	poll.Must(t, env.K8s.Create(s.Ctx, extra))
	s.backendCondition("extra", conditions.TypeReady, metav1.ConditionTrue, "")
	if c := s.condition(glancev1.ConditionBackendsReady, metav1.ConditionTrue, ""); !strings.Contains(c.Message, "3 backends projected (archive, extra, fast)") {
		t.Errorf("BackendsReady %q after attaching extra", c.Message)
	}
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	poll.Must(t, env.K8s.Delete(s.Ctx, extra))
	poll.Until(t, waitLong, func() error {
		c := s.condition(glancev1.ConditionBackendsReady, metav1.ConditionTrue, "")
		if !strings.Contains(c.Message, "2 backends projected (archive, fast)") {
			return errString("BackendsReady " + c.Message + " after detaching extra")
		}
		return nil
	})

	s.setDefault("fast", false)
	s.condition(glancev1.ConditionBackendsReady, metav1.ConditionFalse, glancev1.ReasonNoDefaultBackend)
	s.setDefault("archive", true)
	poll.Until(t, waitLong, func() error {
		c := s.condition(glancev1.ConditionBackendsReady, metav1.ConditionTrue, "")
		if !strings.HasSuffix(c.Message, "default archive") {
			return errString("BackendsReady " + c.Message + " after the flip")
		}
		return nil
	})
	s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
	s.condition(glancev1.ConditionGlanceAPIReady, metav1.ConditionTrue, "APIHealthy")
}

type errString string

func (e errString) Error() string { return string(e) }
