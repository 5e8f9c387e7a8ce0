package workload

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// BenchmarkDeployment builds the API Deployment with every optional part a
// production CR sets: resources, database TLS, digests, priority class.
func BenchmarkDeployment(b *testing.B) {
	p := baseParams()
	p.PodAnnotations = map[string]string{"placement.c5c3.io/authtoken-hash": "0123456789abcdef", "placement.c5c3.io/db-connection-hash": "fedcba9876543210"}
	p.DBTLS = &DBTLSMount{CASecret: "db-ca", ClientCertSecret: "db-client", MountPath: "/etc/placement-db-tls/"}
	p.Spec = &serviceapi.DeploymentSpec{
		Replicas: 3,
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		},
		PriorityClassName: new("openstack-high"),
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n += len(Deployment(p).Spec.Template.Spec.Containers)
	}
	if n == 0 {
		b.Fatal("no container")
	}
}
