package docscheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Packages are the Go packages of the shared modules (common and
// testsupport) under root: each package directory relative to root with
// the exported top-level names of its non-test files.
func Packages(root string) (map[string][]string, error) {
	pkgs := map[string][]string{}
	for _, mod := range []string{"common", "testsupport"} {
		err := filepath.WalkDir(filepath.Join(root, mod), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			names, ok, err := exported(path)
			if err != nil || !ok {
				return err
			}
			rel, err := filepath.Rel(root, path)
			pkgs[filepath.ToSlash(rel)] = names
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return pkgs, nil
}

// exported lists the exported top-level names (and methods, as
// Type.Method) of dir's non-test Go files; ok is false when there are none.
func exported(dir string) (names []string, ok bool, err error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, false, err
		}
		ok = true
		names = append(names, declared(f)...)
	}
	slices.Sort(names)
	return names, ok, nil
}

// declared lists the exported top-level names of f, and its exported
// methods as Type.Method.
func declared(f *ast.File) []string {
	var names []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil || len(d.Recv.List) == 0 {
				names = append(names, d.Name.Name)
				continue
			}
			if recv := receiver(d.Recv.List[0].Type); token.IsExported(recv) {
				names = append(names, recv+"."+d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					if spec.Name.IsExported() {
						names = append(names, spec.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						if n.IsExported() {
							names = append(names, n.Name)
						}
					}
				}
			}
		}
	}
	return names
}

// receiver is the type name of a method's receiver (T, *T, T[P], *T[P]).
func receiver(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// codeSpans are the inline code spans of a Markdown document outside its
// fenced blocks.
func codeSpans(doc string) []string {
	var spans []string
	for _, line := range Lines(doc) {
		for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
			spans = append(spans, m[1])
		}
	}
	return spans
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	// A path under a shared module, optionally with a file or a Go
	// qualifier after it.
	sharedPath = regexp.MustCompile(`^(common|testsupport)/([a-z0-9/]+?)(/[A-Za-z0-9_.-]+\.(go|md))?$`)
	// pkg.Name or pkg.Type.Method, maybe called.
	qualified = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)?)(\(.*\))?$`)
)

// StalePackageRefs reports the code spans of doc that name what does not
// exist in pkgs: a path under common/ or testsupport/ that is no package
// directory (or file in one), and pkg.Name where pkg is the name of
// exactly one shared package that declares no such exported Name.
func StalePackageRefs(doc string, pkgs map[string][]string) []string {
	byName := map[string][]string{}
	for dir := range pkgs {
		byName[filepath.Base(dir)] = append(byName[filepath.Base(dir)], dir)
	}
	var stale []string
	for _, span := range codeSpans(doc) {
		if m := sharedPath.FindStringSubmatch(span); m != nil {
			dir := m[1] + "/" + strings.TrimSuffix(m[2], "/")
			if _, ok := pkgs[dir]; !ok && !isLayer(dir, pkgs) {
				stale = append(stale, span+": no such package")
			}
			continue
		}
		m := qualified.FindStringSubmatch(span)
		if m == nil || len(byName[m[1]]) != 1 {
			continue
		}
		dir := byName[m[1]][0]
		if !slices.Contains(pkgs[dir], m[2]) && !slices.Contains(pkgs[dir], strings.SplitN(m[2], ".", 2)[0]) {
			stale = append(stale, fmt.Sprintf("%s: %s declares no %s", span, dir, m[2]))
		}
	}
	return stale
}

// isLayer reports whether dir is a folder holding shared packages (a
// layer such as common/framework, or a module root).
func isLayer(dir string, pkgs map[string][]string) bool {
	for p := range pkgs {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}
