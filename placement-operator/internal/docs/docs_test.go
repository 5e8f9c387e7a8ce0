package docs

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

var update = flag.Bool("update", false, "rewrite docs/placement/crd-reference.md")

const (
	root      = "../../.."
	reference = root + "/docs/placement/crd-reference.md"
	guide     = root + "/docs/placement/README.md"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCRDReferenceUpToDate(t *testing.T) {
	rows, err := Rows([]byte(read(t, "../../config/crd/placement.openstack.c5c3.io_placements.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 60 {
		t.Fatalf("only %d fields found; the walk is broken", len(rows))
	}
	want := Markdown("Placement", rows)
	if *update {
		if err := os.WriteFile(reference, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, reference); got != want {
		t.Errorf("%s is stale: run go test ./internal/docs -update", reference)
	}
	for _, r := range rows {
		if r.Description == "" && !strings.HasPrefix(r.Path, "status.conditions") {
			t.Errorf("field %s has no description (add a Go doc comment)", r.Path)
		}
	}
}

// Every condition type and reason the code defines is in the guide's tables.
func TestReasonsDocumented(t *testing.T) {
	doc := read(t, guide)
	consts := stringConsts(t, root+"/common/conditions", "../../api/v1alpha1")
	for name, value := range consts {
		if !strings.HasPrefix(name, "Reason") && !strings.HasPrefix(name, "Type") && !strings.HasPrefix(name, "Condition") {
			continue
		}
		if !strings.Contains(doc, "`"+value+"`") {
			t.Errorf("%s (%q) is not documented in %s", name, value, guide)
		}
	}
}

// Every event reason emitted by the controller and the shared flows it uses.
func TestEventsDocumented(t *testing.T) {
	doc := read(t, guide)
	consts := stringConsts(t, root+"/common/conditions", root+"/common/finalize", "../../api/v1alpha1")
	call := regexp.MustCompile(`Eventf\([^,]+, nil, corev1\.EventType\w+, ("[^"]+"|[\w.]+)`)
	found := 0
	for _, dir := range []string{"../controller", root + "/common/finalize"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			for _, m := range call.FindAllStringSubmatch(read(t, f), -1) {
				reason := m[1]
				if s, err := strconv.Unquote(reason); err == nil {
					reason = s
				} else if v, ok := consts[reason[strings.LastIndex(reason, ".")+1:]]; ok {
					reason = v
				} else {
					continue // a computed reason (the release gate's), covered by the reason table
				}
				found++
				if !strings.Contains(doc, "`"+reason+"`") {
					t.Errorf("event %s (%s) is not documented in %s", reason, f, guide)
				}
			}
		}
	}
	if found < 6 {
		t.Fatalf("found only %d event reasons; the scan is broken", found)
	}
}

func TestFlagsDocumented(t *testing.T) {
	doc := read(t, guide)
	fs := flag.NewFlagSet("placement-operator", flag.ContinueOnError)
	manager.BindFlags(fs)
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		if !strings.Contains(doc, "`--"+f.Name+"`") {
			t.Errorf("flag --%s is not documented in %s", f.Name, guide)
		}
	})
	if n == 0 {
		t.Fatal("no flags bound")
	}
}

// stringConsts collects the string constants declared in the packages at dirs.
func stringConsts(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								out[name.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	return out
}
