package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// StringConsts collects the string constants declared in the non-test Go
// files of the packages at dirs, by name.
func StringConsts(dirs ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, dir := range dirs {
		files, err := goFiles(dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				return nil, err
			}
			for _, d := range file.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, name := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							out[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
		}
	}
	return out, nil
}

var (
	// eventCall is a recorder call: its fourth argument is the reason.
	eventCall = regexp.MustCompile(`Eventf\([^,]+, [^,]+, corev1\.EventType\w+, ("[^"]+"|[\w.]+)`)
	// periodicReason is a reason field of a periodic Job's description
	// (common/framework/service.PeriodicJob): the step emits it as an event.
	periodicReason = regexp.MustCompile(`\b(?:Failed|Deferred):\s+("[^"]+"|[\w.]+)`)
)

// EventReasons maps every event reason the code in dirs emits to the file
// emitting it: the literal or constant reason of each Eventf call, the
// reasons of periodic Job descriptions, and every constant named Event* in
// dirs (the reasons a flow passes through a helper). consts resolves
// constant names. Computed reasons (the release gate's) are condition
// reasons and covered as such.
func EventReasons(consts map[string]string, dirs ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, dir := range dirs {
		files, err := goFiles(dir)
		if err != nil {
			return nil, err
		}
		declared, err := StringConsts(dir)
		if err != nil {
			return nil, err
		}
		for name, value := range declared {
			if strings.HasPrefix(name, "Event") {
				out[value] = dir
			}
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			for _, re := range []*regexp.Regexp{eventCall, periodicReason} {
				for _, m := range re.FindAllStringSubmatch(string(src), -1) {
					if reason, ok := resolve(m[1], consts); ok {
						out[reason] = f
					}
				}
			}
		}
	}
	return out, nil
}

// resolve turns a quoted literal or a (qualified) constant name into its value.
func resolve(expr string, consts map[string]string) (string, bool) {
	if s, err := strconv.Unquote(expr); err == nil {
		return s, true
	}
	v, ok := consts[expr[strings.LastIndex(expr, ".")+1:]]
	return v, ok
}

func goFiles(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, os.ErrNotExist
	}
	return out, nil
}
