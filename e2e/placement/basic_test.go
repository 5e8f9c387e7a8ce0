package placement_test

import (
	"strings"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestBasicDeploymentToReady, for each release: the webhook defaults the
// CR; the operator provisions the schema and account (real, on MariaDB),
// runs db-sync (the Job's script, for real), rolls out the API (Debian's
// placement-api runs the Deployment's command) and turns Ready through a
// real health probe. Stopping the API process turns PlacementAPIReady
// False.
func TestBasicDeploymentToReady(t *testing.T) {
	for _, release := range []string{"2025.2", "2026.1"} {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, env.K8s, release, nil)
			s.ready()
			p := s.placement()
			if p.Spec.ServiceUser.Username != "placement" || p.Spec.ServiceUser.ProjectName != "service" {
				t.Errorf("serviceUser not defaulted by the webhook: %+v", p.Spec.ServiceUser)
			}
			if p.Status.InstalledRelease != release {
				t.Errorf("installedRelease = %q, want %s", p.Status.InstalledRelease, release)
			}
			api := s.condition(placementv1.ConditionPlacementAPIReady, metav1.ConditionTrue, "APIHealthy")
			if url := p.Annotations[probe.URLAnnotation]; !cluster.Kind() && (url == "" || !strings.Contains(api.Message, url)) {
				t.Errorf("PlacementAPIReady %q does not name the local API %q", api.Message, url)
			}
			for _, obj := range []client.Object{
				&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
				&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
				&policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
				&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name + "-db-connection"}},
				&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name + "-db-sync"}},
				&mariadbv1alpha1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
				&mariadbv1alpha1.User{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
				&mariadbv1alpha1.Grant{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name}},
			} {
				if !s.exists(obj) {
					t.Errorf("%T %s missing", obj, obj.GetName())
				}
			}
			if !s.schemaExists() || !s.userExists() {
				t.Fatalf("schema %s or user %s missing on the MariaDB server", s.schema, s.dbUser)
			}
			if n := sqlCount(t, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '"+s.schema+"'"); n == "0" {
				t.Fatal("db-sync ran but the schema has no table")
			}
			if s.events()["DatabaseSynced"] != 1 {
				t.Errorf("events %v, want one DatabaseSynced", s.events())
			}

			if cluster.Kind() {
				return // the API processes are the local runner's only with kwok
			}
			// The API process dies: the pod turns not Ready and the probe fails.
			if n := env.Machine.Runner.Kill(s.ns); n == 0 {
				t.Fatal("no API process ran for the Placement")
			}
			s.condition(placementv1.ConditionPlacementAPIReady, metav1.ConditionFalse, "")
			s.condition(placementv1.ConditionReady, metav1.ConditionFalse, "")
		})
	}
}
