package render_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// The full case: every optional section, the paste pipeline with middleware.
func BenchmarkConfigData(b *testing.B) {
	g := full()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render.ConfigData(g, testEnabled, "minio", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The full case: TLS, image cache volume and sidecar, digests.
func BenchmarkDeployment(b *testing.B) {
	g := full()
	d := render.Digests{Authtoken: "0123456789abcdef", DBConnection: "fedcba9876543210"}
	b.ReportAllocs()
	var dep *appsv1.Deployment
	for b.Loop() {
		dep = render.Deployment(g, testConfigMap, testBackends, d)
	}
	if dep == nil {
		b.Fatal("no Deployment")
	}
}
