package docscheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeGo(t *testing.T, dir, name, src string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPermissionsTakeTheParagraphAboveTheirBlock(t *testing.T) {
	root := t.TempDir()
	writeGo(t, filepath.Join(root, "op", "sub"), "a.go", `package sub

// Deployments: created and kept.
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;create
// +kubebuilder:webhook:path=/x,mutating=false
// +kubebuilder:rbac:groups="",resources=secrets;configmaps,verbs=get

// Events.
// +kubebuilder:rbac:groups="",resources=events,verbs=create
`)
	writeGo(t, filepath.Join(root, "op", "sub"), "a_test.go", "package sub\n\n// +kubebuilder:rbac:groups=x,resources=y,verbs=z\n")
	perms, err := Permissions(root, "op")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range perms {
		got = append(got, strings.Join(p.Groups, ";")+"|"+strings.Join(p.Resources, ";")+"|"+strings.Join(p.Verbs, ";")+"|"+p.Why+"|"+p.Source)
	}
	want := []string{
		"apps|deployments|get;create|Deployments: created and kept.|op/sub/a.go",
		"|secrets;configmaps|get|Deployments: created and kept.|op/sub/a.go",
		"|events|create|Events.|op/sub/a.go",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("permissions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPermissionsRefuseAMarkerWithoutAReason(t *testing.T) {
	for name, src := range map[string]string{
		"no comment":  "package x\n\n// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get\n",
		"code above":  "package x\n\n// Reason.\nvar v = 1\n// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get\n",
		"unknown key": "package x\n\n// Reason.\n// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,namespace=x\n",
	} {
		root := t.TempDir()
		writeGo(t, filepath.Join(root, "op"), "x.go", src)
		if perms, err := Permissions(root, "op"); err == nil {
			t.Errorf("%s: %+v, want an error", name, perms)
		}
	}
}

func TestRoleGrantsRefuseWildcards(t *testing.T) {
	role := func(rule string) []byte {
		return []byte("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: x\nrules:\n" + rule)
	}
	grants, err := RoleGrants(role("- apiGroups: [apps]\n  resources: [deployments]\n  verbs: [get, list]\n"))
	if err != nil || len(grants) != 2 || grants[1].String() != "list apps/deployments" {
		t.Errorf("grants %v, %v", grants, err)
	}
	for _, rule := range []string{
		"- apiGroups: ['*']\n  resources: [deployments]\n  verbs: [get]\n",
		"- apiGroups: [apps]\n  resources: ['*']\n  verbs: [get]\n",
		"- apiGroups: [apps]\n  resources: [deployments]\n  verbs: ['*']\n",
		"- apiGroups: [apps]\n  resources: [deployments]\n  resourceNames: [one]\n  verbs: [get]\n",
	} {
		if g, err := RoleGrants(role(rule)); err == nil {
			t.Errorf("rule %q read as %v, want an error", rule, g)
		}
	}
}
