package runsuite

import (
	"context"
	"fmt"
	"os"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// asOperator returns cfg acting as the operator's ServiceAccount (named
// after the ClusterRole) in namespace, bound to the ClusterRole that
// controller-gen wrote to roleFile and to nothing else: every request the
// manager makes in the suite is checked against the generated RBAC, as the
// chart's ServiceAccount would be. A permission the chart grants per
// namespace (Barbican's TokenRequest Role) is the test's to bind.
func asOperator(ctx context.Context, admin client.Client, cfg *rest.Config, roleFile, namespace string) (*rest.Config, error) {
	raw, err := os.ReadFile(roleFile)
	if err != nil {
		return nil, err
	}
	var role rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict([]byte(strings.TrimPrefix(strings.TrimSpace(string(raw)), "---")), &role); err != nil {
		return nil, fmt.Errorf("%s: %w", roleFile, err)
	}
	if role.Kind != "ClusterRole" || role.Name == "" {
		return nil, fmt.Errorf("%s: want one named ClusterRole, got %s %q", roleFile, role.Kind, role.Name)
	}
	if err := admin.Create(ctx, &role); err != nil {
		return nil, err
	}
	binding := &rbacv1.ClusterRoleBinding{
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role.Name},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: namespace, Name: role.Name}},
	}
	binding.Name = role.Name
	if err := admin.Create(ctx, binding); err != nil {
		return nil, err
	}
	out := rest.CopyConfig(cfg)
	out.Impersonate = rest.ImpersonationConfig{UserName: OperatorUser(namespace, role.Name)}
	return out, nil
}

// OperatorUser is the user name of the ServiceAccount name in namespace,
// the identity a suite's manager acts as.
func OperatorUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}
