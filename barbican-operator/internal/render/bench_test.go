package render_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
)

// The full case: policy, plugins, extraConfig, middleware, two stores.
func BenchmarkConfigData(b *testing.B) {
	br := full()
	stores := brownfieldStores()
	rules := policyRules(br)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := render.ConfigData(br, stores, rules, hostHref(br)); err != nil {
			b.Fatal(err)
		}
	}
}

// The full case: TLS, CA volume, startup probe, digests.
func BenchmarkDeployment(b *testing.B) {
	br := full()
	store := render.StoreMount{CredentialsSecret: "openbao-approle", CASecret: "openbao-tls-ca"}
	d := render.Digests{Authtoken: "0123456789abcdef", DBConnection: "fedcba9876543210", StoreCredentials: "00ff"}
	b.ReportAllocs()
	var dep *appsv1.Deployment
	for b.Loop() {
		dep = render.Deployment(br, testConfigSecret, store, d)
	}
	if dep == nil {
		b.Fatal("no Deployment")
	}
}
