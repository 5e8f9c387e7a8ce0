package admit

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// passed counts the requests the wrapped handler let through.
type passed struct{ n int }

func (p *passed) Handle(context.Context, admission.Request) admission.Response {
	p.n++
	return admission.Allowed("")
}

// recordingServer keeps what was registered on it.
type recordingServer struct {
	webhook.Server
	hooks map[string]http.Handler
}

func (r *recordingServer) Register(path string, hook http.Handler) { r.hooks[path] = hook }

func TestScopedWebhooksRefuseUnwatchedNamespaces(t *testing.T) {
	inner := &recordingServer{hooks: map[string]http.Handler{}}
	if got := Scoped(inner, "placement-operator", nil); got != webhook.Server(inner) {
		t.Fatal("the cluster-wide mode wraps the server")
	}
	next := &passed{}
	Scoped(inner, "placement-operator", []string{"openstack", "infra"}).Register("/validate", &admission.Webhook{Handler: next})
	h := inner.hooks["/validate"].(*admission.Webhook).Handler

	object := func(terminating bool) []byte {
		m := metav1.ObjectMeta{Name: "p"}
		if terminating {
			m.DeletionTimestamp = &metav1.Time{Time: time.Now()}
		}
		b, err := json.Marshal(&metav1.PartialObjectMetadata{ObjectMeta: m})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		name        string
		ns          string
		op          admissionv1.Operation
		terminating bool
		refused     bool
	}{
		{name: "create in a watched namespace", ns: "infra", op: admissionv1.Create},
		{name: "create elsewhere", ns: "team-a", op: admissionv1.Create, refused: true},
		{name: "update elsewhere", ns: "team-a", op: admissionv1.Update, refused: true},
		{name: "update of a terminating object elsewhere (finalizer removal)", ns: "team-a", op: admissionv1.Update, terminating: true},
		{name: "delete elsewhere", ns: "team-a", op: admissionv1.Delete},
		{name: "cluster-scoped object", ns: "", op: admissionv1.Create},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := next.n
			resp := h.Handle(context.Background(), admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
				Namespace: c.ns, Operation: c.op, Kind: metav1.GroupVersionKind{Kind: "Placement"},
				Object: runtime.RawExtension{Raw: object(c.terminating)},
			}})
			if c.refused {
				msg := resp.Result.Message
				if resp.Allowed || next.n != before || !strings.Contains(msg, `namespace "team-a" is not watched by placement-operator (watchNamespaces: infra, openstack)`) ||
					!strings.Contains(msg, "this Placement") || !strings.Contains(msg, "operator.watchNamespaces") {
					t.Fatalf("allowed %t, passed on %t, message %q", resp.Allowed, next.n != before, msg)
				}
				return
			}
			if !resp.Allowed || next.n != before+1 {
				t.Fatalf("not passed on to the operator's webhook: allowed %t, %+v", resp.Allowed, resp.Result)
			}
		})
	}
}
