package controller_test

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// A Deployment whose immutable selector differs from the rendered one (as an
// older operator version could have left it) is deleted and recreated, not
// updated into an API error on every pass.
func TestDeploymentSelectorChangeRecreates(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t)
	p := newPlacement(ns, "placement")
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	eventually(t, "default store Ready", func() error {
		return testenv.SecretStore(ctx, k8s, "", serviceapi.DefaultSecretStoreName, true)
	})
	must(t, k8s.Create(ctx, p))
	// No credentials yet: the pass stops at the secrets gate, before the Deployment.
	p = waitCondition(t, ns, p.Name, placementv1.ConditionSecretsReady, metav1.ConditionFalse, "WaitingForDBCredentials")

	oldSelector := map[string]string{
		workload.NameLabel: "placement", workload.InstanceLabel: p.Name, workload.ComponentLabel: workload.ComponentAPI,
	}
	old := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: p.Name,
			Labels: map[string]string{workload.ManagedByLabel: "placement-operator"}, OwnerReferences: []metav1.OwnerReference{{
				APIVersion: placementv1.GroupVersion.String(), Kind: "Placement", Name: p.Name, UID: p.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}}},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: oldSelector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: oldSelector},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "placement-api", Image: "old"}}},
			},
		},
	}
	must(t, k8s.Create(ctx, old))

	inputs(t, ns)
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
	eventually(t, "Deployment recreated with the rendered selector", func() error {
		var d appsv1.Deployment
		if err := k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: p.Name}, &d); err != nil {
			return err // deleted, not created again yet
		}
		if d.UID == old.UID {
			return errorf("still the old Deployment, selector %v", d.Spec.Selector.MatchLabels)
		}
		if len(d.Spec.Selector.MatchLabels) != 2 || d.Spec.Selector.MatchLabels[workload.ComponentLabel] != "" {
			return errorf("selector %v, want name and instance only", d.Spec.Selector.MatchLabels)
		}
		return nil
	})
	rollOut(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
}

// The Service selects every pod of the instance until the rollout has
// converged, then only the API pods, and stays so through the next rollout
// (the selector latches). The pass that applies the Deployment ensures the
// Service first: a status it wrote proves the Service was judged.
func TestServiceNarrowedOnceRolledOutAndLatched(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	toRollout(t, ns, p)
	waitCondition(t, ns, p.Name, placementv1.ConditionDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	if sel := service(t, ns, p.Name).Spec.Selector; sel[workload.ComponentLabel] != "" {
		t.Fatalf("Service selector %v before the rollout, want every pod of the instance", sel)
	}

	rollOut(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	if sel := service(t, ns, p.Name).Spec.Selector; sel[workload.ComponentLabel] != workload.ComponentAPI {
		t.Fatalf("Service selector %v once rolled out, want the API component", sel)
	}

	update(t, ns, p.Name, func(p *placementv1.Placement) { p.Spec.Deployment.Replicas = 2 })
	waitCondition(t, ns, p.Name, placementv1.ConditionDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	if sel := service(t, ns, p.Name).Spec.Selector; sel[workload.ComponentLabel] != workload.ComponentAPI {
		t.Errorf("Service selector %v during the next rollout, want it kept narrowed", sel)
	}
}

func service(t *testing.T, ns, name string) *corev1.Service {
	t.Helper()
	var svc corev1.Service
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &svc))
	return &svc
}
