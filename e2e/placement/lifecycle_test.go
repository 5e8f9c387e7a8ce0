package placement_test

import (
	"fmt"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestDeletionCleansUp: the finalizer deletes the MariaDB CRs (the schema
// and account go with them), garbage collection removes the owned children,
// and the Placement's metric series disappear.
func TestDeletionCleansUp(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	s.ready()
	suite.DeletionCleansUp(t, s.in, env.K8s, env.DB,
		suite.Deletion{CR: s.placement(), Kind: "Placement", Series: "placement", Metrics: env.Op.Metrics}, waitLong)
}

// TestReleaseUpgrade: 2025.2 → 2026.1 with the image in lockstep re-runs
// db-sync and promotes installedRelease; a downgrade, a skipped release and
// an image of another release are refused with their reasons.
func TestReleaseUpgrade(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	s.ready()
	before := s.jobUID()
	setRelease := func(release, tag string) {
		s.update(func(p *placementv1.Placement) {
			p.Spec.OpenStackRelease = release
			p.Spec.Image.Tag = tag
		})
	}

	setRelease("2026.1", "2026.1")
	s.ready()
	if p := s.placement(); p.Status.InstalledRelease != "2026.1" {
		t.Fatalf("installedRelease = %q after the upgrade", p.Status.InstalledRelease)
	}
	if s.jobUID() == before {
		t.Fatal("the upgrade did not re-run db-sync")
	}
	if n := s.events()["DatabaseSynced"]; n != 2 {
		t.Errorf("DatabaseSynced events = %d, want 2 (install, upgrade)", n)
	}

	setRelease("2025.2", "2025.2")
	s.condition(placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "DowngradeNotSupported")
	s.waitEvent("DowngradeNotSupported")

	setRelease("2027.1", "2027.1")
	s.condition(placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "UpgradePathInvalid")
	s.waitEvent("UpgradePathInvalid")

	setRelease("2026.2", "2026.1")
	s.condition(placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "ImageReleaseMismatch")
	if p := s.placement(); p.Status.InstalledRelease != "2026.1" {
		t.Errorf("installedRelease = %q after refused changes, want 2026.1", p.Status.InstalledRelease)
	}

	setRelease("2026.1", "2026.1")
	s.ready()
}

// TestCredentialRotation: a new service-user password rolls the Deployment
// exactly once; the new pods run and the Placement is Ready again.
func TestCredentialRotation(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	s.ready()
	suite.RotationRollsOnce(t, s.in, waitLong, s.ready)
}

// TestOperatorKilledMidPipeline: the operator dies while the db-sync Job
// runs; once restarted it converges without a second Job.
func TestOperatorKilledMidPipeline(t *testing.T) {
	s := newSite(t, env.K8s, "2025.2", nil)
	var uid string
	poll.Until(t, waitLong, func() error {
		uid = s.jobUID()
		if uid == "" {
			return fmt.Errorf("no db-sync Job yet")
		}
		return nil
	})
	env.Op.Kill()
	poll.Must(t, env.Op.Start())
	s.ready()
	if got := s.jobUID(); got != uid {
		t.Errorf("db-sync Job replaced after the restart: %s → %s", uid, got)
	}
	if n := s.events()["DatabaseSynced"]; n != 1 {
		t.Errorf("DatabaseSynced events = %d, want 1", n)
	}
}

func (s *site) jobUID() string {
	var j batchv1.Job
	if err := s.c.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-sync"}, &j); err != nil {
		return ""
	}
	return string(j.UID)
}
