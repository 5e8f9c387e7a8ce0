package charts

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// barbicanChart is the Barbican operator's entry of operatorCharts.
func barbicanChart(t *testing.T) chart {
	t.Helper()
	for _, c := range operatorCharts {
		if c.name == "barbican-operator" {
			return c
		}
	}
	t.Fatal("no barbican-operator chart")
	return chart{}
}

// The rule a managed store's provisioner login needs, granted per
// namespace of rbac.secretStoreNamespaces.
var tokenRequestRules = []any{map[string]any{
	"apiGroups": []any{""}, "resources": []any{"serviceaccounts/token"}, "verbs": []any{"create"},
}}

// A Role and a RoleBinding per listed namespace, bound to the operator's
// ServiceAccount; none without a list, and the ClusterRole holds no token
// right of its own.
func TestBarbicanChartTokenRequestRoles(t *testing.T) {
	c := barbicanChart(t)
	name := c.fullname() + "-tokenrequest"
	for _, o := range decodeList(t, mustHelm(t, "template", c.release, "charts/"+c.name, "--namespace", c.namespace, "--kube-version", kubeVersion)) {
		if strings.HasSuffix(o.GetName(), "-tokenrequest") {
			t.Errorf("%s %s/%s rendered without rbac.secretStoreNamespaces", o.GetKind(), o.GetNamespace(), o.GetName())
		}
		if o.GetKind() == "ClusterRole" && grants(t, o, "", "serviceaccounts/token", "create") {
			t.Errorf("ClusterRole %s grants serviceaccounts/token cluster-wide", o.GetName())
		}
	}

	got := map[string]bool{}
	for _, o := range decodeList(t, mustHelm(t, "template", c.release, "charts/"+c.name, "--namespace", c.namespace, "--kube-version", kubeVersion,
		"--set", "rbac.secretStoreNamespaces={team-a,team-b}")) {
		noWildcards(t, o)
		if o.GetName() != name {
			continue
		}
		got[o.GetKind()+"/"+o.GetNamespace()] = true
		switch o.GetKind() {
		case "Role":
			if diff := cmp.Diff(tokenRequestRules, o.Object["rules"]); diff != "" {
				t.Errorf("Role in %s (-want +got):\n%s", o.GetNamespace(), diff)
			}
		case "RoleBinding":
			want := []any{map[string]any{"kind": "ServiceAccount", "name": c.fullname(), "namespace": c.namespace}}
			if diff := cmp.Diff(want, o.Object["subjects"]); diff != "" {
				t.Errorf("RoleBinding in %s subjects (-want +got):\n%s", o.GetNamespace(), diff)
			}
		}
	}
	want := map[string]bool{"Role/team-a": true, "RoleBinding/team-a": true, "Role/team-b": true, "RoleBinding/team-b": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("token-request objects (-want +got):\n%s", diff)
	}

	for name, value := range map[string]string{"not a DNS label": "{Team_A}", "repeated": "{team-a,team-a}"} {
		t.Run(name, func(t *testing.T) {
			_, err := helm(t, "template", c.release, "charts/"+c.name, "--kube-version", kubeVersion, "--set", "rbac.secretStoreNamespaces="+value)
			if err == nil || !strings.Contains(err.Error(), "values don't meet the specifications of the schema") {
				t.Errorf("err = %v, want a schema violation", err)
			}
		})
	}
}

// Installed on a real API server, the chart lets the operator's
// ServiceAccount request tokens in a listed namespace and nowhere else, as
// the API server's own RBAC authorizer decides.
func TestBarbicanChartTokenRequestOnAPIServer(t *testing.T) {
	c := barbicanChart(t)
	k, kubeconfig := startAPIServer(t)
	ctx := context.Background()
	for _, ns := range []string{"team-a", "team-b"} {
		if err := k.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	mustHelm(t, "install", c.release, "charts/"+c.name, "--namespace", c.namespace, "--create-namespace", "--kubeconfig", kubeconfig,
		"--set", "rbac.secretStoreNamespaces={team-a}")
	user := "system:serviceaccount:" + c.namespace + ":" + c.fullname()
	for ns, want := range map[string]bool{"team-a": true, "team-b": false, "": false} {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User:   user,
			Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + c.namespace, "system:authenticated"},
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: ns, Verb: "create", Resource: "serviceaccounts", Subresource: "token", Name: "vault-provisioner",
			},
		}}
		if err := k.Create(ctx, sar); err != nil {
			t.Fatal(err)
		}
		if sar.Status.Allowed != want {
			t.Errorf("TokenRequest in namespace %q allowed = %t, want %t (%s)", ns, sar.Status.Allowed, want, sar.Status.Reason)
		}
	}
}

// mustHelm runs helm and fails the test on an error.
func mustHelm(t *testing.T, args ...string) string {
	t.Helper()
	out, err := helm(t, args...)
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
