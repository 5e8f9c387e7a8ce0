package apply

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func TestDeleteForRecreate_FakeClient(t *testing.T) {
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
	}{
		{name: "missing", port: 9000},
		{name: "owned, update reaches desired", seed: owned, port: 8778},
		{name: "owned, immutable change", seed: owned, port: 9000, want: "port changed", wantDeleted: true},
		{name: "foreign, immutable change", seed: foreign(func(*corev1.Service) {}), port: 9000},
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
			why, err := DeleteForRecreate(context.Background(), c, o, service(tt.port), portChanged)
			if err != nil {
				t.Fatal(err)
			}
			if why != tt.want {
				t.Errorf("reason %q, want %q", why, tt.want)
			}
			if got := w.Delete - deletes; got != map[bool]int{true: 1}[tt.wantDeleted] {
				t.Errorf("%d deletes, want deleted=%v", got, tt.wantDeleted)
			}
			if tt.wantDeleted {
				err := c.Get(context.Background(), client.ObjectKeyFromObject(service(0)), &corev1.Service{})
				if !apierrors.IsNotFound(err) {
					t.Errorf("object still there after the delete: %v", err)
				}
			}
		})
	}
}
