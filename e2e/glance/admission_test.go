package glance_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestInvalidCRsRefused: the webhooks the chart installed (served by the
// operator process) refuse invalid CRs of both kinds with a message that
// names the field and says what to do, and nothing is stored.
func TestInvalidCRsRefused(t *testing.T) {
	in := suite.NewSite(t, env.K8s, env.K8s, "glance", "g")
	s := &site{Site: in}
	refused := func(obj client.Object, want ...string) { t.Helper(); suite.Refused(t, env.K8s, obj, want...) }

	g := &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name},
		Spec: glancev1.GlanceSpec{ServiceSpec: in.Spec("2025.2", "", env.DB.Port)}}
	g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}
	refused(g, "spec.importPlugins.decompression", "staging")

	refused(s.backend("default", "b", "s3", false), "metadata.name", "names a section glance-api.conf or glance itself owns")
	first := s.backend("first", "b", "s3", true)
	if err := env.K8s.Create(t.Context(), first); err != nil {
		t.Fatal(err)
	}
	refused(s.backend("second", "b", "s3", true), "spec.isDefault", "already has the default backend first")
}
