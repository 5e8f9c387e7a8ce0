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
	"unicode"

	cmanager "github.com/c5c3/openstack-operators/common/manager"
	"github.com/c5c3/openstack-operators/common/release"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

var update = flag.Bool("update", false, "rewrite docs/placement/crd-reference.md")

const (
	root            = "../../.."
	reference       = root + "/docs/placement/crd-reference.md"
	guide           = root + "/docs/placement/README.md"
	troubleshooting = root + "/docs/placement/troubleshooting.md"
)

// reasonDirs hold the packages that declare condition reasons: the shared
// reasons, the release gate's (same values), and the operator's API.
var reasonDirs = []string{root + "/common/conditions", root + "/common/release", "../../api/v1alpha1"}

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

// spec.image.tag's description says which tags the release check reads: the
// examples it gives of tags naming a release, and of tags naming none, are
// read that way by the release parser.
func TestImageTagDescriptionMatchesReleaseCheck(t *testing.T) {
	rows, err := Rows([]byte(read(t, "../../config/crd/placement.openstack.c5c3.io_placements.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	var desc string
	for _, r := range rows {
		if r.Path == "spec.image.tag" {
			desc = oneLine(r.Description)
		}
	}
	if desc == "" {
		t.Fatal("spec.image.tag has no description")
	}
	for _, tc := range []struct {
		tag     string
		release bool
	}{
		{"2025.2", true}, {"2025.2-p1", true},
		// These start with YYYY.N but are not wholly a release.
		{"2025.2.3", false}, {"2025.2rc1", false},
		{"latest", false},
	} {
		if !strings.Contains(desc, tc.tag) {
			t.Errorf("spec.image.tag description %q gives no example %s", desc, tc.tag)
		}
		if _, err := release.Parse(tc.tag); (err == nil) != tc.release {
			t.Errorf("release.Parse(%q) error %v; the description says it names a release: %v", tc.tag, err, tc.release)
		}
		if refused := release.CheckTag(tc.tag, "2024.1") != nil; refused != tc.release {
			t.Errorf("CheckTag(%q) refused = %v, want %v", tc.tag, refused, tc.release)
		}
	}
	if strings.Contains(desc, "starting with") {
		t.Errorf("spec.image.tag description %q: the check reads whole tags, not prefixes", desc)
	}
}

// Every condition type and reason the code defines is in the guide's tables.
func TestReasonsDocumented(t *testing.T) {
	doc := read(t, guide)
	consts := stringConsts(t, reasonDirs...)
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
	reasons := eventReasons(t)
	if len(reasons) < 6 {
		t.Fatalf("found only %d event reasons; the scan is broken", len(reasons))
	}
	for reason, file := range reasons {
		if !strings.Contains(doc, "`"+reason+"`") {
			t.Errorf("event %s (%s) is not documented in %s", reason, file, guide)
		}
	}
}

// eventReasons maps each literal or constant event reason passed to Eventf
// by the controller and the deletion flow to the file emitting it. Computed
// reasons (the release gate's) are condition reasons and covered as such.
func eventReasons(t *testing.T) map[string]string {
	t.Helper()
	consts := stringConsts(t, root+"/common/conditions", root+"/common/finalize", "../../api/v1alpha1")
	call := regexp.MustCompile(`Eventf\([^,]+, nil, corev1\.EventType\w+, ("[^"]+"|[\w.]+)`)
	out := map[string]string{}
	for _, dir := range []string{"../controller", root + "/common/service", root + "/common/finalize"} {
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
					continue
				}
				out[reason] = f
			}
		}
	}
	return out
}

func TestFlagsDocumented(t *testing.T) {
	doc := read(t, guide)
	fs := flag.NewFlagSet("placement-operator", flag.ContinueOnError)
	cmanager.BindFlags(fs, manager.Operator.Profile, manager.Operator.Group)
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

// Every condition reason the code defines has its own section in the
// troubleshooting page: a heading that is the reason alone, followed by text.
// A section headed by a backticked name that is neither a condition reason nor
// an event reason is stale.
func TestTroubleshootingCoversReasons(t *testing.T) {
	sections := markdownSections(read(t, troubleshooting))
	reasons := map[string]string{}
	for name, value := range stringConsts(t, reasonDirs...) {
		if strings.HasPrefix(name, "Reason") {
			reasons[value] = name
		}
	}
	if len(reasons) < 30 {
		t.Fatalf("found only %d condition reasons; the scan is broken", len(reasons))
	}
	for value, name := range reasons {
		body, ok := sections[value]
		if !ok {
			t.Errorf("%s (%q) has no section in %s: add a heading \"### `%s`\" saying what it means, what to check and how to fix it",
				name, value, troubleshooting, value)
			continue
		}
		if strings.TrimSpace(body) == "" {
			t.Errorf("the section of %q in %s is empty", value, troubleshooting)
		}
	}
	events := eventReasons(t)
	for heading := range sections {
		if !identifier.MatchString(heading) {
			continue
		}
		if _, ok := reasons[heading]; ok {
			continue
		}
		if _, ok := events[heading]; ok {
			continue
		}
		t.Errorf("%s has a section for %q, which the code no longer defines as a reason", troubleshooting, heading)
	}
}

var (
	identifier = regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`)
	codeSpan   = regexp.MustCompile("`[^`]*`")
)

// markdownSections maps the text of each backticked-only heading (backticks
// removed) to the text up to the next heading, skipping fenced code.
func markdownSections(doc string) map[string]string {
	out := map[string]string{}
	current := ""
	var body strings.Builder
	flush := func() {
		if current != "" {
			out[current] = body.String()
		}
		body.Reset()
	}
	for _, line := range lines(doc) {
		if text, ok := heading(line); ok {
			flush()
			current = ""
			if strings.HasPrefix(text, "`") && strings.HasSuffix(text, "`") && strings.Count(text, "`") == 2 {
				current = strings.Trim(text, "`")
			}
			continue
		}
		body.WriteString(line + "\n")
	}
	flush()
	return out
}

// lines returns the lines of a Markdown document outside fenced code blocks.
func lines(doc string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return out
}

// heading returns the text of an ATX heading line.
func heading(line string) (string, bool) {
	level := len(line) - len(strings.TrimLeft(line, "#"))
	if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
		return "", false
	}
	return strings.TrimSpace(line[level:]), true
}

// Relative links in the Placement docs and the top-level README resolve to
// files that exist and, with a fragment, to a heading of the target page.
func TestDocLinksResolve(t *testing.T) {
	pages, _ := filepath.Glob(root + "/docs/placement/*.md")
	pages = append(pages, root+"/README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		for _, line := range lines(read(t, page)) {
			for _, m := range link.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, fragment, _ := strings.Cut(target, "#")
				file := page
				if path != "" {
					file = filepath.Join(filepath.Dir(page), path)
				}
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s links to %s, which does not exist", page, target)
					continue
				}
				if fragment != "" && strings.HasSuffix(file, ".md") && !anchors(read(t, file))[fragment] {
					t.Errorf("%s links to %s: no such heading in %s", page, target, file)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d links; the scan is broken", checked)
	}
}

// anchors are the fragment identifiers GitHub derives from a page's headings:
// lower case, punctuation dropped, spaces as hyphens, repeats numbered.
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range lines(doc) {
		text, ok := heading(line)
		if !ok {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// The guide's pipeline diagram is drawn from the step table.
func TestPipelineDiagramMatchesStepTable(t *testing.T) {
	doc := read(t, guide)
	const heading = "## The reconcile pipeline\n\n```\n"
	start := strings.Index(doc, heading)
	if start < 0 {
		t.Fatalf("%s has no %q section with a diagram", guide, "The reconcile pipeline")
	}
	start += len(heading)
	end := strings.Index(doc[start:], "```")
	if end < 0 {
		t.Fatal("unterminated diagram")
	}
	want := controller.Table.Diagram()
	if *update {
		doc = doc[:start] + want + doc[start+end:]
		if err := os.WriteFile(guide, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := doc[start : start+end]; got != want {
		t.Errorf("pipeline diagram in %s differs from the step table (run go test ./internal/docs -update):\n%s\nwant:\n%s", guide, got, want)
	}
	for _, name := range controller.Table.StepNames() {
		if !strings.Contains(want, name) {
			t.Errorf("step %s missing from the diagram", name)
		}
	}
}
