package docscheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// root is the directory holding go.work.
func root(t *testing.T) string {
	t.Helper()
	dir, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStalePackageRefs(t *testing.T) {
	pkgs := map[string][]string{
		"common/framework/service": {"Reconciler", "Reconciler.DBSync", "Run"},
		"common/lib/ini":           {"Render"},
	}
	doc := "`common/framework/service` runs `service.Run` and `service.Reconciler.DBSync`; " +
		"`common/framework` is a layer; `ini.Render`, `ctrl.Result` and `common/lib/ini/ini.go` too.\n" +
		"`common/framework/nosuch`, `service.Gone` and `common/operator` are stale.\n" +
		"```\n`common/in/a/fence` is not a span\n```\n"
	got := StalePackageRefs(doc, pkgs)
	want := []string{
		"common/framework/nosuch: no such package",
		"service.Gone: common/framework/service declares no Gone",
		"common/operator: no such package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stale refs %q, want %q", got, want)
	}
}

// Every package of common is on its map, and the docs name no shared
// package or name that is not there.
func TestDocsNameTheSharedPackagesAsTheyAre(t *testing.T) {
	dir := root(t)
	pkgs, err := Packages(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pkgs["common/framework/service"]; !ok {
		t.Fatalf("no common/framework/service among %d packages", len(pkgs))
	}
	commonMap := readDoc(t, filepath.Join(dir, "common", "README.md"))
	spans := codeSpans(commonMap)
	for p := range pkgs {
		rel, ok := strings.CutPrefix(p, "common/")
		if !ok {
			continue
		}
		if !slices.Contains(spans, rel) && !slices.Contains(spans, p) && !slices.Contains(spans, filepath.Base(p)) {
			t.Errorf("common/README.md does not place %s on the map", p)
		}
	}
	docs := []string{filepath.Join(dir, "README.md"), filepath.Join(dir, "common", "README.md")}
	err = filepath.WalkDir(filepath.Join(dir, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "research" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			docs = append(docs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		for _, s := range StalePackageRefs(readDoc(t, doc), pkgs) {
			rel, _ := filepath.Rel(dir, doc)
			t.Errorf("%s: %s", rel, s)
		}
	}
}
