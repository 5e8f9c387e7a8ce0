package docscheck

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/lib/release"
)

// Suite describes one operator's docs and the code they must follow. Paths
// are relative to Root, the repository root seen from the test's directory.
type Suite struct {
	Root string
	// Service names the docs directory docs/<Service>; Title heads the
	// reference page.
	Service, Title string
	// CRDs are the operator's kinds, in the reference page's order.
	CRDs []CRD
	// ReasonDirs are the packages declaring the condition types (Type*,
	// Condition*) and reasons (Reason*) the operator sets.
	ReasonDirs []string
	// EventDirs are the packages whose code emits the operator's events.
	EventDirs []string
	// BindFlags binds the operator's command-line flags.
	BindFlags func(*flag.FlagSet)
	// Pipeline is the controller's step table.
	Pipeline interface {
		Diagram() string
		StepNames() []string
	}
	// RBACDirs are the packages holding the operator's RBAC markers (its
	// own and common/framework/rbac); Role is the ClusterRole generated from them;
	// RBACNote ends the permissions page (the chart's namespaced Roles).
	RBACDirs       []string
	Role, RBACNote string
	// MinReasons is a floor on the condition reasons found: fewer means the
	// scan is broken.
	MinReasons int
	// Update rewrites the generated parts (reference page, diagram).
	Update bool
}

// CRD is one kind's generated CRD.
type CRD struct {
	Kind, File string
	// Opaque are the kind's own fields of upstream types (see Opaque).
	Opaque map[string]string
	// MinFields is a floor on the fields found: fewer means the walk is broken.
	MinFields int
}

// Run runs every check as a subtest.
func (s Suite) Run(t *testing.T) {
	for name, check := range map[string]func(*testing.T){
		"CRDReferenceUpToDate":                   s.Reference,
		"ImageTagDescriptionMatchesReleaseCheck": s.ImageTag,
		"ReasonsDocumented":                      s.Reasons,
		"EventsDocumented":                       s.Events,
		"FlagsDocumented":                        s.Flags,
		"TroubleshootingCoversReasons":           s.Troubleshooting,
		"DocLinksResolve":                        s.Links,
		"PipelineDiagramMatchesStepTable":        s.Diagram,
		"PermissionsDocumented":                  s.RBAC,
	} {
		t.Run(name, check)
	}
}

func (s Suite) path(rel ...string) string { return filepath.Join(append([]string{s.Root}, rel...)...) }
func (s Suite) docs(page string) string   { return s.path("docs", s.Service, page) }

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (s Suite) rows(t *testing.T, c CRD) []Row {
	t.Helper()
	rows, err := Rows([]byte(read(t, s.path(c.File))), c.Opaque)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < c.MinFields {
		t.Fatalf("%s: only %d fields found; the walk is broken", c.Kind, len(rows))
	}
	return rows
}

// Reference checks that crd-reference.md is what the CRDs render to, and every field
// has a description.
func (s Suite) Reference(t *testing.T) {
	var sections []Section
	for _, c := range s.CRDs {
		rows := s.rows(t, c)
		sections = append(sections, Section{Kind: c.Kind, Rows: rows})
		for _, r := range rows {
			if r.Description == "" && !strings.HasPrefix(r.Path, "status.conditions") {
				t.Errorf("%s field %s has no description (add a Go doc comment)", c.Kind, r.Path)
			}
		}
	}
	s.generated(t, "crd-reference.md", Markdown(s.Title, sections...))
}

// RBAC checks that rbac.md is what the RBAC markers render to, that every
// marker says why, and that the markers grant exactly what the generated
// ClusterRole grants, with no wildcard.
func (s Suite) RBAC(t *testing.T) {
	perms, err := Permissions(s.Root, s.RBACDirs...)
	if err != nil {
		t.Fatal(err)
	}
	role, err := RoleGrants([]byte(read(t, s.path(s.Role))))
	if err != nil {
		t.Fatalf("%s: %v", s.Role, err)
	}
	marked := map[grant]bool{}
	for _, p := range perms {
		for _, g := range p.grants() {
			marked[g] = true
		}
	}
	generated := map[grant]bool{}
	for _, g := range role {
		generated[g] = true
		if !marked[g] {
			t.Errorf("%s grants %s, which no marker in %v does", s.Role, g, s.RBACDirs)
		}
	}
	for g := range marked {
		if !generated[g] {
			t.Errorf("a marker grants %s, which %s lacks: run hack/generate.sh", g, s.Role)
		}
	}
	if len(generated) == 0 {
		t.Fatalf("%s grants nothing; the read is broken", s.Role)
	}
	s.generated(t, "rbac.md", RBACMarkdown(s.Title, s.Service, perms, s.RBACNote))
}

// generated checks that the docs page holds want; with Update it writes it.
func (s Suite) generated(t *testing.T, name, want string) {
	t.Helper()
	page := s.docs(name)
	if s.Update {
		if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, page); got != want {
		t.Errorf("%s is stale: run go test ./internal/docs -update", page)
	}
}

// ImageTag checks that spec.image.tag's description says which tags the release check
// reads; the examples it gives of tags naming a release, and of tags naming
// none, are read that way by the release parser.
func (s Suite) ImageTag(t *testing.T) {
	var desc string
	for _, r := range s.rows(t, s.CRDs[0]) {
		if r.Path == "spec.image.tag" {
			desc = r.Description
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

func (s Suite) consts(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	var paths []string
	for _, d := range dirs {
		paths = append(paths, s.path(d))
	}
	c, err := StringConsts(paths...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Reasons checks that every condition type and reason the code defines is in the guide.
func (s Suite) Reasons(t *testing.T) {
	guide := s.docs("README.md")
	doc := read(t, guide)
	for name, value := range s.consts(t, s.ReasonDirs...) {
		if !strings.HasPrefix(name, "Reason") && !strings.HasPrefix(name, "Type") && !strings.HasPrefix(name, "Condition") {
			continue
		}
		if !strings.Contains(doc, "`"+value+"`") {
			t.Errorf("%s (%q) is not documented in %s", name, value, guide)
		}
	}
}

func (s Suite) events(t *testing.T) map[string]string {
	t.Helper()
	var dirs []string
	for _, d := range s.EventDirs {
		dirs = append(dirs, s.path(d))
	}
	out, err := EventReasons(s.consts(t, append(s.ReasonDirs, s.EventDirs...)...), dirs...)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 6 {
		t.Fatalf("found only %d event reasons; the scan is broken", len(out))
	}
	return out
}

// Events checks that every event reason the operator emits is in the guide.
func (s Suite) Events(t *testing.T) {
	guide := s.docs("README.md")
	doc := read(t, guide)
	for reason, file := range s.events(t) {
		if !strings.Contains(doc, "`"+reason+"`") {
			t.Errorf("event %s (%s) is not documented in %s", reason, file, guide)
		}
	}
}

// Flags checks that every command-line flag is in the guide.
func (s Suite) Flags(t *testing.T) {
	guide := s.docs("README.md")
	doc := read(t, guide)
	fs := flag.NewFlagSet(s.Service, flag.ContinueOnError)
	s.BindFlags(fs)
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

var identifier = regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`)

// Troubleshooting checks that every condition reason has its own section (a heading
// that is the reason alone, followed by text); a section headed by a
// backticked name that is neither a condition nor an event reason is stale.
func (s Suite) Troubleshooting(t *testing.T) {
	page := s.docs("troubleshooting.md")
	sections := Sections(read(t, page))
	reasons := map[string]string{}
	for name, value := range s.consts(t, s.ReasonDirs...) {
		if strings.HasPrefix(name, "Reason") {
			reasons[value] = name
		}
	}
	if len(reasons) < s.MinReasons {
		t.Fatalf("found only %d condition reasons; the scan is broken", len(reasons))
	}
	for value, name := range reasons {
		body, ok := sections[value]
		if !ok {
			t.Errorf("%s (%q) has no section in %s: add a heading \"### `%s`\" saying what it means, what to check and how to fix it",
				name, value, page, value)
			continue
		}
		if strings.TrimSpace(body) == "" {
			t.Errorf("the section of %q in %s is empty", value, page)
		}
	}
	events := s.events(t)
	for heading := range sections {
		if !identifier.MatchString(heading) {
			continue
		}
		_, reason := reasons[heading]
		_, event := events[heading]
		if !reason && !event {
			t.Errorf("%s has a section for %q, which the code no longer defines as a reason", page, heading)
		}
	}
}

var (
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan = regexp.MustCompile("`[^`]*`")
)

// Links checks that relative links in the service's docs and the top-level README
// resolve to files that exist and, with a fragment, to a heading.
func (s Suite) Links(t *testing.T) {
	pages, _ := filepath.Glob(s.docs("*.md"))
	pages = append(pages, s.path("README.md"))
	checked := 0
	for _, page := range pages {
		for _, line := range Lines(read(t, page)) {
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
				if fragment != "" && strings.HasSuffix(file, ".md") && !Anchors(read(t, file))[fragment] {
					t.Errorf("%s links to %s: no such heading in %s", page, target, file)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d links; the scan is broken", checked)
	}
}

// Diagram checks that the guide's pipeline diagram is drawn from the step table.
func (s Suite) Diagram(t *testing.T) {
	guide := s.docs("README.md")
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
	want := s.Pipeline.Diagram()
	if s.Update {
		doc = doc[:start] + want + doc[start+end:]
		if err := os.WriteFile(guide, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := doc[start : start+end]; got != want {
		t.Errorf("pipeline diagram in %s differs from the step table (run go test ./internal/docs -update):\n%s\nwant:\n%s", guide, got, want)
	}
	for _, name := range s.Pipeline.StepNames() {
		if !strings.Contains(want, name) {
			t.Errorf("step %s missing from the diagram", name)
		}
	}
}
