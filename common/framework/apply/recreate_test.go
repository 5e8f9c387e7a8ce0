package apply

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestEnsureReplacing_FakeClient(t *testing.T) {
	portChanged := func(live, desired *corev1.Service) string {
		if live.Spec.Ports[0].Port != desired.Spec.Ports[0].Port {
			return "port changed"
		}
		return ""
	}
	owned := func(t *testing.T, c client.Client, o Owner) {
		t.Helper()
		if _, err := Ensure(context.Background(), c, o, service(8778), nil); err != nil {
			t.Fatal(err)
		}
	}
	terminating := func(t *testing.T, c client.Client, o Owner) {
		t.Helper()
		seedOwned(t, c, o) // carries another controller's finalizer
		if err := c.Delete(context.Background(), getService(t, c)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name        string
		seed        func(*testing.T, client.Client, Owner)
		port        int32
		want        string
		wantDeleted bool
		wantErrIn   string
	}{
		{name: "missing: created", port: 9000},
		{name: "owned, update reaches desired", seed: owned, port: 8778},
		{name: "owned, immutable change", seed: owned, port: 9000, want: "port changed", wantDeleted: true},
		{name: "foreign, immutable change: refused, not deleted", seed: foreign(func(*corev1.Service) {}), port: 9000, wantErrIn: "refusing to adopt"},
		{name: "terminating, immutable change", seed: terminating, port: 9000, want: "port changed (deletion in progress)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, w := newClient(t)
			o := newOwner(false)
			if tt.seed != nil {
				tt.seed(t, c, o)
			}
			deletes := w.Delete
			why, err := EnsureReplacing(context.Background(), c, o, service(tt.port), nil, portChanged)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Errorf("error %v, want one containing %q", err, tt.wantErrIn)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if why != tt.want {
				t.Errorf("reason %q, want %q", why, tt.want)
			}
			if got := w.Delete - deletes; got != map[bool]int{true: 1}[tt.wantDeleted] {
				t.Errorf("%d deletes, want deleted=%v", got, tt.wantDeleted)
			}
			var live corev1.Service
			err = c.Get(context.Background(), client.ObjectKeyFromObject(service(0)), &live)
			switch {
			case tt.wantDeleted && !apierrors.IsNotFound(err):
				t.Errorf("object still there after the delete: %v", err)
			case !tt.wantDeleted && tt.wantErrIn == "" && tt.want == "" && (err != nil || live.Spec.Ports[0].Port != tt.port):
				t.Errorf("want the object at port %d, got %+v, %v", tt.port, live.Spec.Ports, err)
			}
		})
	}
}
