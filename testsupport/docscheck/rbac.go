package docscheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// Permission is one RBAC marker: the rules it adds to the operator's
// ClusterRole and why the operator needs them.
type Permission struct {
	Groups, Resources, Verbs []string
	// Why is the comment paragraph right above the marker's block.
	Why string
	// Source is the marker's file, relative to the root.
	Source string
}

const rbacMarker = "// +kubebuilder:rbac:"

// Permissions reads the RBAC markers of the non-test Go files in dirs (under
// root), in order. The reason of a marker is the comment paragraph directly
// above the block of markers it belongs to; a marker without one is an
// error, as is a marker with a key other than groups, resources and verbs.
func Permissions(root string, dirs ...string) ([]Permission, error) {
	var out []Permission
	for _, dir := range dirs {
		files, err := goFilesUnder(filepath.Join(root, dir))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			rel, _ := filepath.Rel(root, f)
			var para []string
			for i, line := range strings.Split(string(b), "\n") {
				line = strings.TrimSpace(line)
				switch {
				case strings.HasPrefix(line, rbacMarker):
					p, err := parseRBACMarker(strings.TrimPrefix(line, rbacMarker))
					if err != nil {
						return nil, fmt.Errorf("%s:%d: %w", rel, i+1, err)
					}
					p.Why, p.Source = strings.Join(para, " "), rel
					if p.Why == "" {
						return nil, fmt.Errorf("%s:%d: RBAC marker without a comment above it saying why", rel, i+1)
					}
					out = append(out, p)
				case strings.HasPrefix(line, "// +"):
					// another marker within the block: neither reason nor break
				case strings.HasPrefix(line, "//"):
					para = append(para, strings.TrimSpace(strings.TrimPrefix(line, "//")))
				default:
					para = nil
				}
			}
		}
	}
	return out, nil
}

// goFilesUnder lists the non-test Go files in dir and below, as
// controller-gen's paths=./... reads them, in lexical order.
func goFilesUnder(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			out = append(out, path)
		}
		return nil
	})
	return out, err
}

func parseRBACMarker(args string) (Permission, error) {
	var p Permission
	for _, kv := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return p, fmt.Errorf("RBAC marker argument %q is not key=value", kv)
		}
		values := strings.Split(strings.Trim(v, `"`), ";")
		switch k {
		case "groups":
			p.Groups = values
		case "resources":
			p.Resources = values
		case "verbs":
			p.Verbs = values
		default:
			return p, fmt.Errorf("RBAC marker key %q: only groups, resources and verbs are documented", k)
		}
	}
	if len(p.Groups) == 0 || len(p.Resources) == 0 || len(p.Verbs) == 0 {
		return p, fmt.Errorf("RBAC marker %q lacks groups, resources or verbs", args)
	}
	return p, nil
}

// grant is one verb on one resource of one API group.
type grant struct{ group, resource, verb string }

func (g grant) String() string {
	return fmt.Sprintf("%s %s/%s", g.verb, groupName(g.group), g.resource)
}

func (p Permission) grants() []grant {
	var out []grant
	for _, g := range p.Groups {
		for _, r := range p.Resources {
			for _, v := range p.Verbs {
				out = append(out, grant{g, r, v})
			}
		}
	}
	return out
}

// RoleGrants reads a generated ClusterRole: its grants, and an error when a
// rule grants a wildcard or names resources or URLs the markers cannot.
func RoleGrants(data []byte) ([]grant, error) {
	var role rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(data, &role); err != nil {
		return nil, err
	}
	var out []grant
	for i, r := range role.Rules {
		if slices.Contains(r.APIGroups, "*") || slices.Contains(r.Resources, "*") || slices.Contains(r.Verbs, "*") {
			return nil, fmt.Errorf("rule %d grants a wildcard: %+v", i, r)
		}
		if len(r.ResourceNames) > 0 || len(r.NonResourceURLs) > 0 {
			return nil, fmt.Errorf("rule %d names resources or URLs: %+v", i, r)
		}
		out = append(out, Permission{Groups: r.APIGroups, Resources: r.Resources, Verbs: r.Verbs}.grants()...)
	}
	return out, nil
}

func groupName(g string) string {
	if g == "" {
		return "core"
	}
	return g
}

func codeList(items []string, name func(string) string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = "`" + name(s) + "`"
	}
	return strings.Join(out, ", ")
}

// RBACMarkdown is the RBAC page of an operator: one row per marker, then
// note (the chart's namespaced Roles).
func RBACMarkdown(title, service string, perms []Permission, note string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s operator: the permissions it needs\n\n", title)
	fmt.Fprintf(&b, "Generated from the RBAC markers in the code (`go test ./internal/docs -update` in\n"+
		"`%s-operator`): every rule of the ClusterRole the chart installs\n"+
		"(`charts/%s-operator/files/clusterrole.yaml`), with the reason written next to\n"+
		"the marker. A test keeps this page, the markers and the generated ClusterRole\n"+
		"in step and fails on any rule that grants `*`.\n\n", service, service)
	b.WriteString("| API group | Resources | Verbs | Why | Marker |\n|---|---|---|---|---|\n")
	for _, p := range perms {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | `%s` |\n", codeList(p.Groups, groupName), codeList(p.Resources, strings.Clone),
			strings.Join(p.Verbs, ", "), strings.ReplaceAll(p.Why, "|", `\|`), p.Source)
	}
	b.WriteString("\n" + note + "\n")
	b.WriteString("\n## Namespace-scoped install\n\n" +
		"With `operator.watchNamespaces` set, the chart splits the same rules: the\n" +
		"cluster-scoped reads (`clustersecretstores`, `priorityclasses`) stay in the\n" +
		"ClusterRole, every other rule goes into a Role bound in each watched\n" +
		"namespace, and a Role in `operator.clustersNamespace` grants `get` on the\n" +
		"target-cluster registration Secrets. The operator caches only those\n" +
		"namespaces (`--watch-namespaces`) and its webhooks refuse a CR created\n" +
		"anywhere else, naming the watched namespaces.\n")
	return b.String()
}
