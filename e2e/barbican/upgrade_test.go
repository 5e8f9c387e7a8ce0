package barbican_test

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// TestUpgradeAcrossPasteLayouts: 2025.2 to 2026.1 through the single real
// `barbican-manage db upgrade` Job on the new image. The bump is accepted
// (targetRelease), the db-clean CronJob is suspended for the migration
// (DBCleanSuspended), and the operator is killed while the Job is held:
// the Job runs while no operator is up, and the restarted operator goes on
// from there without creating it again. installedRelease and
// installedImage move to 2026.1, targetRelease clears, the API rolls onto
// the 2026.1 paste layout (request_id in front, no barbican-profile) and
// serves, and the CronJob runs again.
func TestUpgradeAcrossPasteLayouts(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()
	if paste := s.paste(); !strings.Contains(paste, "[filter:profile]") || strings.Contains(paste, "request_id") {
		t.Fatalf("2025.2 paste layout expected (profile, no request_id):\n%s", paste)
	}
	gate := env.Machine.Runner.HoldJobs(s.NS)
	defer gate.Open()
	s.update(func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2026.1", "2026.1" })

	s.condition(conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonDBSyncInProgress)
	if b := s.barbican(); b.Status.TargetRelease != "2026.1" || b.Status.InstalledRelease != "2025.2" {
		t.Errorf("during the migration: target %q, installed %q", b.Status.TargetRelease, b.Status.InstalledRelease)
	}
	c := s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanSuspended)
	if !strings.Contains(c.Message, "converges to 2026.1") {
		t.Errorf("DBCleanReady %q does not name the migration", c.Message)
	}
	s.cleanSuspended(true)
	sync := s.Name + "-db-sync"
	var job batchv1.Job
	poll.Until(t, waitLong, func() error {
		if err := env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: sync}, &job); err != nil {
			return err
		}
		if img := job.Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":2026.1") {
			return fmt.Errorf("db-sync Job %s runs %s, not the 2026.1 image yet", job.UID, img)
		}
		return nil
	})

	env.Op.Kill()
	gate.Let(sync)
	poll.Until(t, waitLong, func() error {
		if err := env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(&job), &job); err != nil {
			return err
		}
		if job.Status.Succeeded < 1 {
			return fmt.Errorf("job %s: %+v", job.Name, job.Status)
		}
		return nil
	})
	poll.Must(t, env.Op.Start())
	s.ready()

	b := s.barbican()
	if b.Status.InstalledRelease != "2026.1" || b.Status.TargetRelease != "" || !strings.HasSuffix(b.Status.InstalledImage, ":2026.1") {
		t.Errorf("status after the upgrade: installed %q (image %q), target %q", b.Status.InstalledRelease, b.Status.InstalledImage, b.Status.TargetRelease)
	}
	var after batchv1.Job
	poll.Must(t, env.K8s.Get(s.Ctx, client.ObjectKeyFromObject(&job), &after))
	if after.UID != job.UID {
		t.Errorf("the db-sync Job was created again after the restart (uid %s, then %s)", job.UID, after.UID)
	}
	if paste := s.paste(); strings.Contains(paste, "[filter:profile]") || !strings.Contains(paste, "cors request_id http_proxy_to_wsgi") {
		t.Errorf("2026.1 paste layout expected (request_id, no profile):\n%s", paste)
	}
	if img := s.deployment().Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":2026.1") {
		t.Errorf("the API runs %s after the upgrade", img)
	}
	s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled)
	s.cleanSuspended(false)
}

// TestUpgradeRefused: a release bump the gate cannot act on leaves the
// installed release running and pauses the clean for good, reported as
// DBCleanBlocked: first the image left on 2025.2 (ImageReleaseMismatch),
// then a jump over a release (UpgradePathInvalid, with a Warning). The API
// keeps serving throughout; once release and image name the next release
// the upgrade runs and the clean resumes.
func TestUpgradeRefused(t *testing.T) {
	s := newSite(t, "2025.2")
	s.ready()

	s.update(func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease = "2026.1" })
	s.condition(conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonImageReleaseMismatch)
	s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanBlocked)
	s.cleanSuspended(true)
	s.refusedKeepsServing()

	s.update(func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2026.2", "2026.2" })
	s.condition(conditions.TypeDatabaseReady, metav1.ConditionFalse, conditions.ReasonUpgradePathInvalid)
	c := s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionFalse, barbicanv1.ReasonDBCleanBlocked)
	if !strings.Contains(c.Message, conditions.ReasonUpgradePathInvalid) {
		t.Errorf("DBCleanBlocked %q does not name the refusal", c.Message)
	}
	suite.WaitEvent(t, env.K8s, s.NS, "Barbican", s.Name, conditions.ReasonUpgradePathInvalid, waitLong)
	s.refusedKeepsServing()

	s.update(func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease, b.Spec.Image.Tag = "2026.1", "2026.1" })
	s.ready()
	if b := s.barbican(); b.Status.InstalledRelease != "2026.1" {
		t.Errorf("installedRelease %q after the correction", b.Status.InstalledRelease)
	}
	s.condition(barbicanv1.ConditionDBCleanReady, metav1.ConditionTrue, barbicanv1.ReasonDBCleanScheduled)
	s.cleanSuspended(false)
}

// refusedKeepsServing checks that a refused bump left the installed
// release alone: still 2025.2, no target, the API on the 2025.2 image,
// answering its health check.
func (s *site) refusedKeepsServing() {
	s.T.Helper()
	if b := s.barbican(); b.Status.InstalledRelease != "2025.2" || b.Status.TargetRelease != "" {
		s.T.Errorf("after a refused bump: installed %q, target %q", b.Status.InstalledRelease, b.Status.TargetRelease)
	}
	if img := s.deployment().Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":2025.2") {
		s.T.Errorf("the API runs %s after a refused bump", img)
	}
	s.serves()
}

// cleanSuspended waits until the db-clean CronJob's suspend is want.
func (s *site) cleanSuspended(want bool) {
	s.T.Helper()
	poll.Until(s.T, waitLong, func() error {
		if cj := s.cronJob(); cj.Spec.Suspend == nil || *cj.Spec.Suspend != want {
			return fmt.Errorf("CronJob suspend %v, want %v", cj.Spec.Suspend, want)
		}
		return nil
	})
}

// deployment reads the Barbican's API Deployment.
func (s *site) deployment() *appsv1.Deployment {
	s.T.Helper()
	var d appsv1.Deployment
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &d))
	return &d
}

// paste is the barbican-api-paste.ini of the config Secret the API
// Deployment mounts.
func (s *site) paste() string {
	s.T.Helper()
	for _, v := range s.deployment().Spec.Template.Spec.Volumes {
		if v.Name == "config" && v.Secret != nil {
			var sec corev1.Secret
			poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: v.Secret.SecretName}, &sec))
			return string(sec.Data["barbican-api-paste.ini"])
		}
	}
	s.T.Fatal("the Deployment mounts no config Secret")
	return ""
}
