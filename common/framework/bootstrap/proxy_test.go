package bootstrap

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/perf/probe"
)

func TestAnnotatedProbeURL(t *testing.T) {
	const inCluster = "http://placement.ns.svc.cluster.local:8778/"
	proxied := func(client.Object, string) string { return "https://apiserver/proxy/" }
	annotated := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{probe.URLAnnotation: "http://127.0.0.1:9/"}}}
	plain := &metav1.PartialObjectMetadata{}
	for _, tc := range []struct {
		name string
		next func(client.Object, string) string
		p    client.Object
		want string
	}{
		{"annotation wins over the in-cluster URL", nil, annotated, "http://127.0.0.1:9/"},
		{"annotation wins over the proxy", proxied, annotated, "http://127.0.0.1:9/"},
		{"no annotation keeps the in-cluster URL", nil, plain, inCluster},
		{"no annotation keeps the proxy", proxied, plain, "https://apiserver/proxy/"},
	} {
		if got := annotatedProbeURL(tc.next)(tc.p, inCluster); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
