package glance_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestFreshInstallToReady, for each release (2025.2 eventlet, 2026.1
// uWSGI): the chart's webhooks default the Glance and its two backends;
// the operator provisions the schema and account (real, on MariaDB), runs
// the db-sync Job (glance-manage db sync and load_metadefs, for real),
// projects both backends and rolls out the API (Debian's glance-api with
// the Deployment's command, both stores on the real S3 server), and turns
// Ready through a real health probe. Killing the API process turns
// GlanceAPIReady False.
func TestFreshInstallToReady(t *testing.T) {
	for _, release := range []string{"2025.2", "2026.1"} {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, release)
			s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
			for name := range s.buckets {
				s.backendCondition(name, conditions.TypeReady, metav1.ConditionTrue, "")
			}
			g := s.glance()
			if g.Spec.ServiceUser.Username != "glance" || g.Status.InstalledRelease != release {
				t.Errorf("serviceUser %+v (webhook default), installedRelease %q", g.Spec.ServiceUser, g.Status.InstalledRelease)
			}
			s.CheckInstalled(g, s.condition(glancev1.ConditionGlanceAPIReady, metav1.ConditionTrue, "APIHealthy"))
			tables, err := env.DB.Query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + s.Schema + "' AND table_name IN ('images', 'metadef_namespaces')")
			poll.Must(t, err)
			if tables != "2" {
				t.Errorf("schema %s holds %s of images and metadef_namespaces", s.Schema, tables)
			}
			namespaces, err := env.DB.Query("SELECT COUNT(*) FROM " + s.Schema + ".metadef_namespaces")
			poll.Must(t, err)
			if namespaces == "0" {
				t.Error("load_metadefs loaded no metadata definitions")
			}
			if n := env.Machine.Runner.Kill(s.NS); n == 0 {
				t.Fatal("no API process ran for the Glance")
			}
			s.condition(glancev1.ConditionGlanceAPIReady, metav1.ConditionFalse, "")
			s.condition(conditions.TypeReady, metav1.ConditionFalse, "")
		})
	}
}
