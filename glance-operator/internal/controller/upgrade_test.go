package controller_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/upgrade"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// bump sets release and image tag together (lockstep).
func bump(t *testing.T, ns, name, release string) {
	t.Helper()
	suite.Eventually(t, "bump to "+release, func() error {
		g := get(t, ns, name)
		g.Spec.OpenStackRelease = release
		g.Spec.Image.Tag = release
		return k8s.Update(context.Background(), g)
	})
}

// finishJobOf completes the Job name once it runs image tag (a Job replaced
// for a new template must not be confused with its predecessor).
func finishJobOf(t *testing.T, ns, name, tag string, succeeded bool) {
	t.Helper()
	key := client.ObjectKey{Namespace: ns, Name: name}
	suite.Eventually(t, "Job "+name+" on "+tag+" finished", func() error {
		var j batchv1.Job
		if err := k8s.Get(context.Background(), key, &j); err != nil {
			return err
		}
		if img := j.Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":"+tag) || !j.DeletionTimestamp.IsZero() {
			return fmt.Errorf("Job %s runs %s (deleting %v)", name, img, !j.DeletionTimestamp.IsZero())
		}
		return testenv.JobFinished(context.Background(), k8s, key, succeeded)
	})
}

func waitPhase(t *testing.T, ns, name, phase, reason string) *glancev1.Glance {
	t.Helper()
	g := waitCondition(t, ns, name, conditions.TypeDatabaseReady, metav1.ConditionFalse, reason)
	suite.Eventually(t, "phase "+phase, func() error {
		if g = get(t, ns, name); g.Status.UpgradePhase != phase {
			return fmt.Errorf("phase %q", g.Status.UpgradePhase)
		}
		return nil
	})
	return g
}

// 2025.2 (eventlet) to 2026.1 (uWSGI) through every phase: the API keeps the
// old pods until the schema is expanded and migrated, the rollout switches
// the launch mode, the contract runs only after it, and db-sync then runs
// on the new image.
func TestUpgradeThroughEveryPhase(t *testing.T) {
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newGlance(ns, "glance"))
	if cmd := deployment(t, ns, "glance").Spec.Template.Spec.Containers[0].Command; cmd[0] != "glance-api" {
		t.Fatalf("2025.2 command %v, want the eventlet server", cmd)
	}
	gen := deployment(t, ns, "glance").Generation

	bump(t, ns, "glance", "2026.1")
	g := waitPhase(t, ns, "glance", glancev1.PhaseExpanding, upgrade.ReasonExpandInProgress)
	if g.Status.TargetRelease != "2026.1" || g.Status.InstalledRelease != "2025.2" {
		t.Errorf("target %q installed %q", g.Status.TargetRelease, g.Status.InstalledRelease)
	}
	if d := deployment(t, ns, "glance"); d.Generation != gen {
		t.Errorf("Deployment rewritten during Expanding (generation %d -> %d)", gen, d.Generation)
	}
	finishJobOf(t, ns, "glance-db-expand", "2026.1", true)
	waitPhase(t, ns, "glance", glancev1.PhaseMigrating, upgrade.ReasonMigrateInProgress)
	finishJobOf(t, ns, "glance-db-migrate", "2026.1", true)
	waitPhase(t, ns, "glance", glancev1.PhaseRollingUpdate, upgrade.ReasonUpgradeRollingUpdate)
	waitCondition(t, ns, "glance", conditions.TypeDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	d := deployment(t, ns, "glance")
	if c := d.Spec.Template.Spec.Containers[0]; c.Command[0] != "uwsgi" || !strings.HasSuffix(c.Image, ":2026.1") {
		t.Fatalf("RollingUpdate Deployment runs %v on %s, want uwsgi on 2026.1", c.Command, c.Image)
	}
	if _, err := getJob(ns, "glance-db-contract"); !apierrors.IsNotFound(err) {
		t.Fatalf("contract Job before the rollout converged: %v", err)
	}
	suite.RollOutAfter(t, ns, "glance", gen)
	waitPhase(t, ns, "glance", glancev1.PhaseContracting, upgrade.ReasonContractInProgress)
	finishJobOf(t, ns, "glance-db-contract", "2026.1", true)
	finishJobOf(t, ns, "glance-db-sync", "2026.1", true)
	g = waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionTrue, "DatabaseSynced")
	if g.Status.InstalledRelease != "2026.1" || g.Status.TargetRelease != "" || g.Status.UpgradePhase != "" ||
		g.Status.InstalledImage != "registry.example.org/openstack/glance:2026.1" {
		t.Errorf("after the upgrade: installed %q (%q) target %q phase %q", g.Status.InstalledRelease, g.Status.InstalledImage,
			g.Status.TargetRelease, g.Status.UpgradePhase)
	}
	waitCondition(t, ns, "glance", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	reasons := suite.EventReasons(t, ns, "glance")
	for _, r := range []string{upgrade.EventUpgradeInitiated, upgrade.EventExpandComplete, upgrade.EventMigrateComplete,
		upgrade.EventDeploymentRolloutComplete, upgrade.EventUpgradeComplete} {
		if reasons[r] != 1 {
			t.Errorf("event %s emitted %d times, want once: %v", r, reasons[r], reasons)
		}
	}
}

func getJob(ns, name string) (*batchv1.Job, error) { return suite.Job(ns, name) }

// Setting openStackRelease back to the installed release aborts: the phase
// Jobs go and the installed release is synced again.
func TestUpgradeAbort(t *testing.T) {
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newGlance(ns, "glance"))
	bump(t, ns, "glance", "2026.1")
	waitPhase(t, ns, "glance", glancev1.PhaseExpanding, upgrade.ReasonExpandInProgress)
	finishJobOf(t, ns, "glance-db-expand", "2026.1", true)
	waitPhase(t, ns, "glance", glancev1.PhaseMigrating, upgrade.ReasonMigrateInProgress)

	bump(t, ns, "glance", "2025.2")
	suite.Eventually(t, "upgrade aborted", func() error {
		g := get(t, ns, "glance")
		if g.Status.UpgradePhase != "" || g.Status.TargetRelease != "" {
			return fmt.Errorf("phase %q target %q", g.Status.UpgradePhase, g.Status.TargetRelease)
		}
		for _, j := range []string{"glance-db-expand", "glance-db-migrate"} {
			if job, err := getJob(ns, j); err == nil && job.DeletionTimestamp.IsZero() {
				return fmt.Errorf("Job %s still there", j)
			}
		}
		return nil
	})
	waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionTrue, "DatabaseSynced")
	if g := get(t, ns, "glance"); g.Status.InstalledRelease != "2025.2" {
		t.Errorf("installed %q after the abort", g.Status.InstalledRelease)
	}
	if n := suite.EventReasons(t, ns, "glance")[upgrade.EventUpgradeAborted]; n != 1 {
		t.Errorf("UpgradeAborted emitted %d times", n)
	}
}

// A new target mid-flight freezes the upgrade until spec returns to the target.
func TestUpgradeTargetChangedFreezes(t *testing.T) {
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newGlance(ns, "glance"))
	bump(t, ns, "glance", "2026.1")
	waitPhase(t, ns, "glance", glancev1.PhaseExpanding, upgrade.ReasonExpandInProgress)

	bump(t, ns, "glance", "2026.2")
	g := waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, upgrade.ReasonUpgradeTargetChanged)
	if g.Status.UpgradePhase != glancev1.PhaseExpanding || g.Status.TargetRelease != "2026.1" {
		t.Errorf("frozen state: phase %q target %q", g.Status.UpgradePhase, g.Status.TargetRelease)
	}
	if suite.EventReasons(t, ns, "glance")[upgrade.ReasonUpgradeTargetChanged] == 0 {
		t.Error("no UpgradeTargetChanged warning")
	}
	bump(t, ns, "glance", "2026.1")
	waitPhase(t, ns, "glance", glancev1.PhaseExpanding, upgrade.ReasonExpandInProgress)
	finishJobOf(t, ns, "glance-db-expand", "2026.1", false)
	waitCondition(t, ns, "glance", conditions.TypeDatabaseReady, metav1.ConditionFalse, upgrade.ReasonExpandFailed)
	if !slices.Contains(eventKeys(suite.EventReasons(t, ns, "glance")), upgrade.ReasonExpandFailed) {
		t.Error("no ExpandFailed warning")
	}
}

func eventKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
