package testenv

import (
	"context"
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

func TestCountWrites(t *testing.T) {
	boom := errors.New("boom")
	var w Writes
	c := fake.NewClientBuilder().WithInterceptorFuncs(CountWrites(&w, interceptor.Funcs{
		Delete: func(context.Context, client.WithWatch, client.Object, ...client.DeleteOption) error { return boom },
	})).Build()
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(ctx, cm); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, cm); !errors.Is(err, boom) {
		t.Fatalf("Delete = %v, want the injected error", err)
	}
	if w.Create != 1 || w.Update != 1 || w.Delete != 1 || w.Total() != 3 {
		t.Errorf("writes = %+v (total %d), want one create, update and delete", w, w.Total())
	}
}
