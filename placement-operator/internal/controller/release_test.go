package controller_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// poke writes an annotation on the Placement: a pass follows.
func poke(t *testing.T, ns, name string) {
	t.Helper()
	suite.Poke(t, &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
}

// update applies mutate to the live Placement and writes it back.
func update(t *testing.T, ns, name string, mutate func(*placementv1.Placement)) {
	t.Helper()
	eventually(t, "update "+name, func() error {
		p := get(t, ns, name)
		mutate(p)
		return k8s.Update(context.Background(), p)
	})
}

func TestReleaseBumpAccepted(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	firstJob := jobUID(t, ns, "placement")

	update(t, ns, "placement", func(p *placementv1.Placement) {
		p.Spec.OpenStackRelease = "2026.1"
		p.Spec.Image.Tag = "2026.1"
	})
	eventually(t, "targetRelease stamped", func() error {
		p := get(t, ns, "placement")
		if p.Status.TargetRelease != "2026.1" || p.Status.InstalledRelease != "2025.2" {
			return errorf("target %q installed %q", p.Status.TargetRelease, p.Status.InstalledRelease)
		}
		return nil
	})
	eventually(t, "new db-sync Job", func() error {
		if jobUID(t, ns, "placement") == firstJob {
			return errorf("Job not replaced yet")
		}
		return nil
	})
	finishJob(t, ns, "placement", true)
	eventually(t, "Deployment on the new image", func() error {
		if img := deployment(t, ns, "placement").Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":2026.1") {
			return errorf("image %q", img)
		}
		return nil
	})
	rollOut(t, ns, "placement")
	p := waitCondition(t, ns, "placement", placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	if p.Status.InstalledRelease != "2026.1" || p.Status.TargetRelease != "" ||
		p.Status.InstalledImage != "registry.example.org/openstack/placement:2026.1" {
		t.Errorf("after upgrade: installed %q target %q image %q", p.Status.InstalledRelease, p.Status.TargetRelease, p.Status.InstalledImage)
	}
}

func TestReleaseGateRefusals(t *testing.T) {
	for _, tc := range testenv.ReleaseRefusals {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			ns := namespace(t)
			inputs(t, ns)
			p := newPlacement(ns, "placement")
			if tc.Digest {
				p.Spec.Image.Tag, p.Spec.Image.Digest = "", testenv.Digest
			}
			toReady(t, ns, p)
			update(t, ns, "placement", func(p *placementv1.Placement) { tc.Mutate(&p.Spec.ServiceSpec) })
			got := waitCondition(t, ns, "placement", placementv1.ConditionDatabaseReady, metav1.ConditionFalse, tc.Reason)
			if got.Status.InstalledRelease != "2025.2" || got.Status.TargetRelease != "" {
				t.Errorf("installed %q target %q after a refusal", got.Status.InstalledRelease, got.Status.TargetRelease)
			}
			eventually(t, tc.Reason+" event", func() error {
				if eventReasons(t, ns, "placement")[tc.Reason] == 0 {
					return errorf("no %s event", tc.Reason)
				}
				return nil
			})
		})
	}
}

func TestVersionParseError(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	eventually(t, "corrupt installedRelease", func() error {
		p := get(t, ns, "placement")
		p.Status.InstalledRelease = "latest"
		return k8s.Status().Update(context.Background(), p)
	})
	poke(t, ns, "placement")
	waitCondition(t, ns, "placement", placementv1.ConditionDatabaseReady, metav1.ConditionFalse, "VersionParseError")
}
