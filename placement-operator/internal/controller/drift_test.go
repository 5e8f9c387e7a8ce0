package controller_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// handEdit changes one field the operator owns on a child; back says why
// now (read after the edit) does not yet hold what before held.
type handEdit struct {
	name string
	obj  client.Object // names the child: its kind, namespace and name
	edit func(client.Object)
	back func(before, now client.Object) error
	// rolls: the edit and the repair bump a Deployment's generation, which
	// the simulated Deployment controller must observe before Ready returns.
	rolls bool
}

func containerOf(o client.Object) *corev1.Container {
	return &o.(*appsv1.Deployment).Spec.Template.Spec.Containers[0]
}

// same reports a difference between what get reads from before and now.
func same[T any](what string, get func(client.Object) T) func(before, now client.Object) error {
	return func(before, now client.Object) error {
		if b, n := get(before), get(now); !equality.Semantic.DeepEqual(b, n) {
			return fmt.Errorf("%s is %v, want %v", what, n, b)
		}
		return nil
	}
}

// readyPlacement is a Ready default Placement in a fresh namespace, probed
// through countProbes.
func readyPlacement(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	return ns, countProbes(t, ns, "placement")
}

// The Deployment is put back after a hand edit of a field the operator
// sets, and the passes after that write nothing.
func TestHandEditsArePutBack(t *testing.T) {
	t.Parallel()
	ns, hits := readyPlacement(t)
	meta := metav1.ObjectMeta{Namespace: ns, Name: "placement"}
	edits := []handEdit{
		{name: "Deployment image", obj: &appsv1.Deployment{ObjectMeta: meta}, rolls: true,
			edit: func(o client.Object) { containerOf(o).Image = "registry.example.org/hand/edited:1" },
			back: same("image", func(o client.Object) string { return containerOf(o).Image })},
		{name: "Deployment env var added", obj: &appsv1.Deployment{ObjectMeta: meta}, rolls: true,
			edit: func(o client.Object) {
				containerOf(o).Env = append(containerOf(o).Env, corev1.EnvVar{Name: "HAND_EDIT", Value: "1"})
			},
			back: same("env", func(o client.Object) []corev1.EnvVar { return containerOf(o).Env })},
		{name: "Deployment env var edited", obj: &appsv1.Deployment{ObjectMeta: meta}, rolls: true,
			edit: func(o client.Object) { containerOf(o).Env[0].Value = "/hand/edited" },
			back: same("env", func(o client.Object) []corev1.EnvVar { return containerOf(o).Env })},
		{name: "Deployment replicas without autoscaling", obj: &appsv1.Deployment{ObjectMeta: meta}, rolls: true,
			edit: func(o client.Object) { o.(*appsv1.Deployment).Spec.Replicas = ptr.To[int32](7) },
			back: same("replicas", func(o client.Object) int32 { return *o.(*appsv1.Deployment).Spec.Replicas })},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) { putBack(t, e, hits) })
	}
}

// So is every other child the Placement always owns; the immutable config
// ConfigMap cannot be edited. A deleted Service, db-connection Secret or
// config ConfigMap in use is recreated as it was, without rolling the pods.
func TestHandEditsArePutBackOnSupportingChildren(t *testing.T) {
	t.Parallel()
	ns, hits := readyPlacement(t)
	meta := metav1.ObjectMeta{Namespace: ns, Name: "placement"}
	edits := []handEdit{
		{name: "Service selector", obj: &corev1.Service{ObjectMeta: meta},
			edit: func(o client.Object) { o.(*corev1.Service).Spec.Selector["hand"] = "edited" },
			back: same("selector", func(o client.Object) map[string]string { return o.(*corev1.Service).Spec.Selector })},
		{name: "PodDisruptionBudget", obj: &policyv1.PodDisruptionBudget{ObjectMeta: meta},
			edit: func(o client.Object) {
				o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable = ptr.To(intstr.FromInt32(3))
			},
			back: same("minAvailable", func(o client.Object) *intstr.IntOrString { return o.(*policyv1.PodDisruptionBudget).Spec.MinAvailable })},
		{name: "db-connection Secret data", obj: secretObj(ns, "placement-db-connection"),
			edit: func(o client.Object) {
				o.(*corev1.Secret).Data["connection"] = []byte("mysql+pymysql://hand:edited@elsewhere/placement")
			},
			back: same("data", func(o client.Object) map[string][]byte { return o.(*corev1.Secret).Data })},
		{name: "MariaDB Database", obj: testenv.MariaDBDatabase(ns, "placement"),
			edit: func(o client.Object) { o.(*mariadbv1alpha1.Database).Spec.CharacterSet = "latin1" },
			back: same("characterSet", func(o client.Object) string { return o.(*mariadbv1alpha1.Database).Spec.CharacterSet })},
		{name: "MariaDB User", obj: testenv.MariaDBUser(ns, "placement"),
			edit: func(o client.Object) { o.(*mariadbv1alpha1.User).Spec.PasswordSecretKeyRef.Key = "hand-edited" },
			back: same("passwordSecretKeyRef", func(o client.Object) any { return o.(*mariadbv1alpha1.User).Spec.PasswordSecretKeyRef })},
		{name: "MariaDB Grant", obj: testenv.MariaDBGrant(ns, "placement"),
			edit: func(o client.Object) { o.(*mariadbv1alpha1.Grant).Spec.Privileges = []string{"SELECT"} },
			back: same("privileges", func(o client.Object) []string { return o.(*mariadbv1alpha1.Grant).Spec.Privileges })},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) { putBack(t, e, hits) })
	}

	// Children deleted by hand come back as they were within a pass, and
	// the running pods are not rolled: the Deployment's generation stays.
	cms := configMaps(t, ns)
	if len(cms) != 1 {
		t.Fatalf("%d config ConfigMaps, want 1", len(cms))
	}
	deleted := []struct {
		name string
		obj  client.Object
		back func(before, now client.Object) error
	}{
		{"Service", &corev1.Service{ObjectMeta: meta},
			same("ports", func(o client.Object) []corev1.ServicePort { return o.(*corev1.Service).Spec.Ports })},
		{"db-connection Secret", secretObj(ns, "placement-db-connection"),
			same("data", func(o client.Object) map[string][]byte { return o.(*corev1.Secret).Data })},
		{"config ConfigMap in use", &cms[0],
			same("data", func(o client.Object) map[string]string { return o.(*corev1.ConfigMap).Data })},
	}
	for _, d := range deleted {
		t.Run(d.name+" deleted", func(t *testing.T) {
			ctx := context.Background()
			var dep appsv1.Deployment
			must(t, k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "placement"}, &dep))
			before := d.obj.DeepCopyObject().(client.Object)
			must(t, k8s.Get(ctx, client.ObjectKeyFromObject(d.obj), before))
			must(t, k8s.Delete(ctx, before.DeepCopyObject().(client.Object)))
			eventually(t, d.name+" recreated", func() error {
				now := d.obj.DeepCopyObject().(client.Object)
				if err := k8s.Get(ctx, client.ObjectKeyFromObject(d.obj), now); err != nil {
					return err
				}
				if now.GetUID() == before.GetUID() {
					return errorf("%s not deleted yet", d.name)
				}
				return d.back(before, now)
			})
			waitCondition(t, ns, "placement", placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
			quietPasses(t, ns, hits)
			var after appsv1.Deployment
			must(t, k8s.Get(ctx, client.ObjectKeyFromObject(&dep), &after))
			if after.Generation != dep.Generation || !equality.Semantic.DeepEqual(after.Spec.Template, dep.Spec.Template) {
				t.Errorf("recreating the %s rolled the Deployment: generation %d → %d", d.name, dep.Generation, after.Generation)
			}
		})
	}
}

// HPA, NetworkPolicy and HTTPRoute exist only with spec.autoscaling,
// spec.networkPolicy and spec.gateway; under the autoscaler the replica
// count is the cluster's, so changing it is not drift.
func TestHandEditsArePutBackOnOptionalChildren(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: ptr.To[int32](70)}
	p.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "nova"}}}}}
	p.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "placement.example.org", Annotations: map[string]string{"example.org/tier": "public"},
		ParentRef: serviceapi.GatewayParentRef{Name: "public", Namespace: "gateways"}}
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(ctx, p))
	provisionDatabase(t, ns, p.Name)
	finishJob(t, ns, p.Name, true)
	rollOut(t, ns, p.Name)
	meta := metav1.ObjectMeta{Namespace: ns, Name: "placement"}
	eventually(t, "route accepted", func() error {
		return testenv.RouteAccepted(ctx, k8s, client.ObjectKey{Namespace: ns, Name: p.Name}, true)
	})
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	hits := countProbes(t, ns, "placement")
	edits := []handEdit{
		{name: "HTTPRoute hostname", obj: &gatewayv1.HTTPRoute{ObjectMeta: meta},
			edit: func(o client.Object) { o.(*gatewayv1.HTTPRoute).Spec.Hostnames[0] = "hand.example.org" },
			back: same("hostnames", func(o client.Object) []gatewayv1.Hostname { return o.(*gatewayv1.HTTPRoute).Spec.Hostnames })},
		{name: "HTTPRoute annotation", obj: &gatewayv1.HTTPRoute{ObjectMeta: meta},
			edit: func(o client.Object) { o.GetAnnotations()["example.org/tier"] = "internal" },
			back: same("tier annotation", func(o client.Object) string { return o.GetAnnotations()["example.org/tier"] })},
		{name: "HorizontalPodAutoscaler", obj: &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: meta},
			edit: func(o client.Object) { o.(*autoscalingv2.HorizontalPodAutoscaler).Spec.MaxReplicas = 9 },
			back: same("maxReplicas", func(o client.Object) int32 { return o.(*autoscalingv2.HorizontalPodAutoscaler).Spec.MaxReplicas })},
		{name: "NetworkPolicy", obj: &networkingv1.NetworkPolicy{ObjectMeta: meta},
			edit: func(o client.Object) {
				np := o.(*networkingv1.NetworkPolicy)
				np.Spec.Ingress[0].From = np.Spec.Ingress[0].From[:1]
			},
			back: same("ingress", func(o client.Object) []networkingv1.NetworkPolicyIngressRule {
				return o.(*networkingv1.NetworkPolicy).Spec.Ingress
			})},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) { putBack(t, e, hits) })
	}

	t.Run("Deployment replicas under the autoscaler are kept", func(t *testing.T) {
		key := client.ObjectKey{Namespace: ns, Name: "placement"}
		edit(t, &appsv1.Deployment{ObjectMeta: meta}, func(o client.Object) { o.(*appsv1.Deployment).Spec.Replicas = ptr.To[int32](4) })
		rollOutWritten(t, ns)
		waitCondition(t, ns, "placement", placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
		inCache(t, &appsv1.Deployment{ObjectMeta: meta})
		quietPasses(t, ns, hits)
		if d := deployment(t, key.Namespace, key.Name); *d.Spec.Replicas != 4 {
			t.Errorf("replicas = %d, want the autoscaler's 4", *d.Spec.Replicas)
		}
	})
}

// putBack edits the child by hand, waits until the operator has restored
// it, then proves that further passes write nothing.
func putBack(t *testing.T, e handEdit, hits *atomic.Int64) {
	t.Helper()
	ctx := context.Background()
	before := e.obj.DeepCopyObject().(client.Object)
	must(t, k8s.Get(ctx, client.ObjectKeyFromObject(e.obj), before))
	if e.back(before, before) != nil {
		t.Fatal("back reports a difference between an object and itself")
	}
	edited := edit(t, e.obj, e.edit)
	if e.back(before, edited) == nil {
		t.Fatal("the edit changed nothing back would notice")
	}
	eventually(t, "put back", func() error {
		now := e.obj.DeepCopyObject().(client.Object)
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(e.obj), now); err != nil {
			return err
		}
		return e.back(before, now)
	})
	if e.rolls {
		rollOutWritten(t, e.obj.GetNamespace())
	}
	waitCondition(t, e.obj.GetNamespace(), "placement", placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	inCache(t, e.obj)
	quietPasses(t, e.obj.GetNamespace(), hits)
}

// rollOutWritten waits until the operator has seen the Deployment's new
// generation (DeploymentReady False), then reports the rollout done: Ready
// True before that could be the status from before the edit.
func rollOutWritten(t *testing.T, ns string) {
	t.Helper()
	waitCondition(t, ns, "placement", placementv1.ConditionDeploymentReady, metav1.ConditionFalse, "WaitingForDeployment")
	rollOut(t, ns, "placement")
}

// edit applies f to the live object through the test's client and returns
// the object as written.
func edit(t *testing.T, obj client.Object, f func(client.Object)) client.Object {
	t.Helper()
	out := obj.DeepCopyObject().(client.Object)
	eventually(t, "hand edit", func() error {
		if err := k8s.Get(context.Background(), client.ObjectKeyFromObject(obj), out); err != nil {
			return err
		}
		f(out)
		return k8s.Update(context.Background(), out)
	})
	return out
}

// inCache waits until the manager's cache holds obj as the API server has it.
func inCache(t *testing.T, obj client.Object) { t.Helper(); suite.InCache(t, reconciler.Client, obj) }

// countProbes points the Placement's health probe at a server that counts
// the probes: each is a pass that reached the health check.
func countProbes(t *testing.T, ns, name string) *atomic.Int64 {
	t.Helper()
	return testenv.CountProbes(t, api, types.NamespacedName{Namespace: ns, Name: name})
}

// quietPasses fails on any write the manager sent to the namespace while at
// least one whole pass over the Placement ran (testenv.Suite.QuietPasses).
func quietPasses(t *testing.T, ns string, hits *atomic.Int64) {
	t.Helper()
	if wrote := suite.QuietPasses(t, &placementv1.Placement{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "placement"}}, hits); len(wrote) > 0 {
		t.Errorf("passes over unchanged inputs wrote: %s", strings.Join(wrote, ", "))
	}
}
