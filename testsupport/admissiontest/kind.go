package admissiontest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Kind adapts one operator's kind to the shared cases.
type Kind[T client.Object] struct {
	// Service is the OpenStack service: the spread labels and the username.
	Service string
	GVK     schema.GroupVersionKind
	// New is the smallest valid object a user would apply, named name, in Namespace.
	New func(name string) T
	// Target exposes the shared spec of a service kind; nil for other kinds.
	Target func(T) Target
}

// Target is what the shared cases change in a service CR.
type Target struct {
	Spec *serviceapi.ServiceSpec
	// UWSGI returns the operator's apiServer.uwsgi block, creating it when absent.
	UWSGI func() *serviceapi.UWSGISpec
}

// Deployment returns spec.deployment, creating it when absent.
func (t Target) Deployment() *serviceapi.DeploymentSpec {
	if t.Spec.Deployment == nil {
		t.Spec.Deployment = &serviceapi.DeploymentSpec{}
	}
	return t.Spec.Deployment
}

// Refusal is one invalid object and how it must be refused.
type Refusal[T client.Object] struct {
	Name string
	// Object is metadata.name where the message names the object; else generated.
	Object string
	Mut    func(T)
	Layer  string   // "S": refused by the CRD schema, "V": by the validating webhook
	Want   []string // substrings of the error: the field and the gist
}

// Shared turns a case over the shared spec into one over the kind.
func (k Kind[T]) Shared(name string, mut func(Target), layer string, want ...string) Refusal[T] {
	return Refusal[T]{Name: name, Mut: func(obj T) { mut(k.Target(obj)) }, Layer: layer, Want: want}
}

// Refuses creates each case's object and checks the refusal; prefix keeps
// the generated names apart between tests.
func (k Kind[T]) Refuses(t *testing.T, s *Suite, prefix string, cases []Refusal[T]) {
	t.Helper()
	for i, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			name := tc.Object
			if name == "" {
				name = fmt.Sprintf("%s-%02d", prefix, i)
			}
			obj := k.New(name)
			tc.Mut(obj)
			err := s.Client.Create(context.Background(), obj)
			k.CheckRefused(t, err, tc.Layer, tc.Want)
			if err != nil && strings.Contains(err.Error(), Secret) {
				t.Errorf("error echoes a secret value: %v", err)
			}
		})
	}
}

// Secret is the value cases put where a secret would go; no message may echo it.
const Secret = "s3cret"

// CheckRefused wants err to be a refusal by layer ("S" schema, "V" the
// validating webhook) that mentions every string of want.
func (k Kind[T]) CheckRefused(t *testing.T, err error, layer string, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("admitted")
	}
	if !apierrors.IsInvalid(err) && !apierrors.IsForbidden(err) {
		t.Fatalf("error is %v (reason %s), want Invalid or Forbidden", err, apierrors.ReasonForError(err))
	}
	msg := err.Error()
	hook := fmt.Sprintf("admission webhook %q denied the request", k.validatingHook())
	if byWebhook := strings.Contains(msg, hook); byWebhook != (layer == "V") {
		t.Errorf("refused by webhook = %v, want layer %s: %v", byWebhook, layer, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error does not mention %q: %v", w, msg)
		}
	}
}

// validatingHook is the validating webhook's name by the operators'
// convention: v<kind>.openstack.c5c3.io, e.g. vplacement.openstack.c5c3.io.
func (k Kind[T]) validatingHook() string {
	_, domain, _ := strings.Cut(k.GVK.Group, ".")
	return "v" + strings.ToLower(k.GVK.Kind) + "." + domain
}
