package barbican_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// TestFreshInstallToReady, for each release (2025.2 and 2026.1, the two
// paste layouts): the chart's webhook defaults the Barbican; its managed
// store logs in to the OpenBaoCluster's server with a provisioner token,
// mints the AppRole secret ID and is projected; the operator
// provisions the schema and account (real, on MariaDB), runs the db-sync
// Job (barbican-manage db upgrade, for real), rolls out the API
// (barbican-api 23 under uwsgi with the Deployment's command, the store's
// secret ID from the environment) and turns Ready through a real health
// probe. Killing the API processes turns BarbicanAPIReady False.
func TestFreshInstallToReady(t *testing.T) {
	for _, release := range []string{"2025.2", "2026.1"} {
		t.Run(release, func(t *testing.T) {
			s, _ := newManagedSite(t, release, 0)
			// The Barbican's conditions show progress; the store's wait for
			// the projection.
			s.condition(conditions.TypeReady, metav1.ConditionTrue, "")
			s.storeCondition("vault", conditions.TypeReady, metav1.ConditionTrue, "")
			b := s.barbican()
			if b.Spec.ServiceUser.Username != "barbican" || b.Status.InstalledRelease != release {
				t.Errorf("serviceUser %+v (webhook default), installedRelease %q", b.Spec.ServiceUser, b.Status.InstalledRelease)
			}
			if got := b.Status.ProjectedSecretStores; len(got) != 1 || got[0] != "vault" {
				t.Errorf("projectedSecretStores %v, want [vault]", got)
			}
			s.CheckInstalled(b, s.condition(barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionTrue, "APIHealthy"))
			tables, err := env.DB.Query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + s.Schema +
				"' AND table_name IN ('secrets', 'secret_stores', 'alembic_version')")
			poll.Must(t, err)
			if tables != "3" {
				t.Errorf("schema %s holds %s of secrets, secret_stores and alembic_version", s.Schema, tables)
			}
			if n := env.Machine.Runner.Kill(s.NS); n == 0 {
				t.Fatal("no API process ran for the Barbican")
			}
			s.condition(barbicanv1.ConditionBarbicanAPIReady, metav1.ConditionFalse, "")
			s.condition(conditions.TypeReady, metav1.ConditionFalse, "")
		})
	}
}
