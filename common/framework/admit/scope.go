package admit

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// Scoped returns srv such that every webhook registered on it refuses to
// create or update an object in a namespace the operator does not watch:
// in a namespace-scoped install nothing would ever reconcile it, and the
// operator, whose cache and RBAC stop at the watched namespaces, could not
// even report that in its status. A terminating object passes, so that its
// finalizers can still be removed, and so does every delete. With no
// namespaces (the cluster-wide mode) srv is returned as it is.
func Scoped(srv webhook.Server, operator string, namespaces []string) webhook.Server {
	if len(namespaces) == 0 {
		return srv
	}
	return scopedServer{Server: srv, operator: operator, watched: slices.Sorted(slices.Values(namespaces))}
}

type scopedServer struct {
	webhook.Server
	operator string
	watched  []string
}

// Register wraps the admission handler of hook before serving it.
func (s scopedServer) Register(path string, hook http.Handler) {
	if wh, ok := hook.(*admission.Webhook); ok {
		wh.Handler = scopedHandler{next: wh.Handler, operator: s.operator, watched: s.watched}
	}
	s.Server.Register(path, hook)
}

type scopedHandler struct {
	next     admission.Handler
	operator string
	watched  []string
}

// Handle denies a create or update outside the watched namespaces and
// passes everything else on.
func (h scopedHandler) Handle(ctx context.Context, req admission.Request) admission.Response {
	if !h.refuses(req) {
		return h.next.Handle(ctx, req)
	}
	return admission.Denied(fmt.Sprintf(
		"namespace %q is not watched by %s (watchNamespaces: %s): nothing would reconcile this %s; "+
			"create it in a watched namespace or add %q to the chart's operator.watchNamespaces",
		req.Namespace, h.operator, strings.Join(h.watched, ", "), req.Kind.Kind, req.Namespace))
}

func (h scopedHandler) refuses(req admission.Request) bool {
	if req.Namespace == "" || slices.Contains(h.watched, req.Namespace) {
		return false
	}
	switch req.Operation {
	case admissionv1.Create:
		return true
	case admissionv1.Update:
		return !terminating(req.Object.Raw)
	}
	return false
}

// terminating reports whether the object carries a deletion timestamp.
func terminating(raw []byte) bool {
	var obj metav1.PartialObjectMetadata
	return json.Unmarshal(raw, &obj) == nil && obj.DeletionTimestamp != nil
}
