package controller_test

import (
	"context"
	"maps"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

// Barbican's config is a Secret, not a ConfigMap as Placement's and
// Glance's: the config Secret in use, deleted by hand, comes back under its
// name with the data it held, and the Deployment is not rolled. (The e2e
// fault suite's ChildrenDeleted runs on a Placement, whose config is a
// ConfigMap: docs/decisions/test-run-layout.md.)
func TestDeletedConfigSecretComesBackAsItWas(t *testing.T) {
	t.Parallel()
	ns := suite.Namespace(t)
	inputs(t, ns)
	toReady(t, ns, newBarbican(ns, "barbican"))
	ctx := context.Background()
	dep := deployment(t, ns, "barbican")
	name, _ := configOf(t, dep)
	var before corev1.Secret
	must(t, k8s.Get(ctx, keyOf(ns, name), &before))
	must(t, k8s.Delete(ctx, before.DeepCopy()))

	suite.Eventually(t, "config Secret "+name+" recreated", func() error {
		var now corev1.Secret
		if err := k8s.Get(ctx, keyOf(ns, name), &now); err != nil {
			return err
		}
		if now.UID == before.UID {
			return errorf("%s not deleted yet", name)
		}
		if !maps.EqualFunc(now.Data, before.Data, func(a, b []byte) bool { return string(a) == string(b) }) {
			return errorf("%s recreated with other data", name)
		}
		return nil
	})
	waitCondition(t, ns, "barbican", conditions.TypeReady, metav1.ConditionTrue, "AllReady")
	if after := deployment(t, ns, "barbican"); after.Generation != dep.Generation {
		t.Errorf("recreating the config Secret rolled the Deployment: generation %d → %d", dep.Generation, after.Generation)
	}
}
