package manager

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/probe"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

func TestAnnotatedProbeURL(t *testing.T) {
	const inCluster = "http://placement.ns.svc.cluster.local:8778/"
	proxied := func(*placementv1.Placement, string) string { return "https://apiserver/proxy/" }
	annotated := &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{probe.URLAnnotation: "http://127.0.0.1:9/"}}}
	plain := &placementv1.Placement{}
	for _, tc := range []struct {
		name string
		next func(*placementv1.Placement, string) string
		p    *placementv1.Placement
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
