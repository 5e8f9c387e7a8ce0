package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestReleaseDryRun runs `make release … DRY_RUN=1` for every operator of
// the tree, at the version of its newest changelog entry, in a clean clone
// of the tree as it is (tracked changes included), and checks what a user
// gets: the binary says its version, the image carries it in its labels and
// holds that binary, the packaged chart passes helm lint, its version and
// appVersion are the binary's and its default image is the released one.
// Then one operator is released again: no artefact of another changes, its
// own binary and image come out byte for byte the same, the tree stays clean
// and no tag was created.
func TestReleaseDryRun(t *testing.T) {
	clone, commit := cloneTree(t)
	env := releaseEnv(t, clone)
	date := git(t, clone, "log", "-1", "--date=format-local:%Y-%m-%dT%H:%M:%SZ", "--format=%cd")
	dist := t.TempDir()
	ops := operators(t, clone)
	for _, op := range ops {
		t.Run(op, func(t *testing.T) {
			version := newestVersion(t, clone, op)
			out, err := run(clone, []string{"DIST=" + dist}, "make", "release", "OPERATOR="+op, "VERSION="+version, "DRY_RUN=1")
			if err != nil {
				t.Fatalf("make release: %v\n%s", err, out)
			}
			// No tag of the shared modules in the clone: the first ones come
			// with the release.
			if want := "would tag " + commit + " with: " + op + "/v" + version + " common/v0.1.0 testsupport/v0.1.0"; !strings.Contains(out, want) {
				t.Errorf("the dry run does not say %q:\n%s", want, out)
			}
			a := artefacts{t: t, clone: clone, dir: filepath.Join(dist, op, version), op: op, version: version, commit: commit, date: date, env: env}
			a.check()
		})
	}
	if t.Failed() {
		return
	}

	before := snapshot(t, dist)
	first := ops[0]
	version := newestVersion(t, clone, first)
	if out, err := run(clone, []string{"DIST=" + dist}, "make", "release", "OPERATOR="+first, "VERSION="+version, "DRY_RUN=1"); err != nil {
		t.Fatalf("make release again: %v\n%s", err, out)
	}
	after := snapshot(t, dist)
	for _, name := range slices.Sorted(maps.Keys(before)) {
		own := strings.HasPrefix(name, first+"/")
		switch {
		case !own && after[name] != before[name]:
			t.Errorf("releasing %s changed %s of another operator", first, name)
		case own && (strings.HasSuffix(name, "-linux-amd64") || strings.HasSuffix(name, "-image.tar")) && after[name].sum != before[name].sum:
			t.Errorf("releasing %s %s twice gave two different %s", first, version, name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("artefacts after the second release: %d, before: %d", len(after), len(before))
	}
	if st := git(t, clone, "status", "--porcelain"); st != "" {
		t.Errorf("the release left the tree changed:\n%s", st)
	}
	if tags := git(t, clone, "tag", "--list", "*-operator/v*", "common/v*", "testsupport/v*"); tags != "" {
		t.Errorf("a dry run created tags: %s", tags)
	}
}

// TestReleaseRefuses checks that a release that must not happen stops
// before it builds anything, and says why, and that one failing while it
// builds leaves nothing behind.
func TestReleaseRefuses(t *testing.T) {
	clone, _ := cloneTree(t)
	op := operators(t, clone)[0]
	version := newestVersion(t, clone, op)
	chart := filepath.Join(clone, "charts", op, "Chart.yaml")
	cases := []struct {
		name  string
		args  []string
		setup func(t *testing.T) (undo func())
		want  string
	}{
		{name: "no operator named", args: []string{"VERSION=" + version}, want: "name the operator"},
		{name: "not a semantic version", args: []string{"OPERATOR=" + op, "VERSION=v1.2"}, want: "is not x.y.z"},
		{name: "unknown operator", args: []string{"OPERATOR=nope-operator", "VERSION=" + version}, want: "no operator nope-operator"},
		{name: "no changelog entry", args: []string{"OPERATOR=" + op, "VERSION=98.0.1"}, want: "has no entry '## [98.0.1] - YYYY-MM-DD'"},
		{name: "dirty tree", args: []string{"OPERATOR=" + op, "VERSION=" + version}, want: "the tree is not clean",
			setup: func(t *testing.T) func() {
				stray := filepath.Join(clone, op, "stray.go")
				if err := os.WriteFile(stray, []byte("package stray\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return func() { _ = os.Remove(stray) }
			}},
		{name: "already tagged", args: []string{"OPERATOR=" + op, "VERSION=" + version}, want: "exists already",
			setup: func(t *testing.T) func() {
				git(t, clone, "tag", op+"/v"+version)
				return func() { git(t, clone, "tag", "-d", op+"/v"+version) }
			}},
		{name: "chart not at the version", args: []string{"OPERATOR=" + op, "VERSION=" + version}, want: "Chart.yaml version is 0.0.1-other",
			setup: func(t *testing.T) func() {
				b, err := os.ReadFile(chart)
				if err != nil {
					t.Fatal(err)
				}
				other := regexp.MustCompile(`(?m)^version: .*$`).ReplaceAll(b, []byte("version: 0.0.1-other"))
				if err := os.WriteFile(chart, other, 0o644); err != nil {
					t.Fatal(err)
				}
				git(t, clone, "commit", "-q", "-am", "chart at another version")
				return func() { git(t, clone, "reset", "-q", "--hard", "HEAD~1") }
			}},
		{name: "chart does not lint", args: []string{"OPERATOR=" + op, "VERSION=" + version}, want: "helm lint of the packaged chart failed",
			setup: func(t *testing.T) func() {
				broken := filepath.Join(clone, "charts", op, "templates", "broken.yaml")
				if err := os.WriteFile(broken, []byte("{{ .Values.nosuchkey.nested }}\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				git(t, clone, "add", broken)
				git(t, clone, "commit", "-q", "-m", "a chart that does not render")
				return func() { git(t, clone, "reset", "-q", "--hard", "HEAD~1") }
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				defer tc.setup(t)()
			}
			dist := filepath.Join(t.TempDir(), "dist")
			args := append([]string{"release", "DRY_RUN=1"}, tc.args...)
			out, err := run(clone, []string{"DIST=" + dist}, "make", args...)
			if err == nil {
				t.Fatalf("make %s succeeded; want it refused with %q:\n%s", strings.Join(args, " "), tc.want, out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("make %s said:\n%s\nwant %q", strings.Join(args, " "), out, tc.want)
			}
			if _, err := os.Stat(dist); err == nil {
				if files := snapshot(t, dist); len(files) != 0 {
					t.Errorf("a refused or failed release left %v in %s", slices.Sorted(maps.Keys(files)), dist)
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
		})
	}
	// The same clone, put back, releases: the refusals above came from what
	// each case changed, not from the clone.
	dist := t.TempDir()
	if out, err := run(clone, append([]string{"DIST=" + dist}, gitIdentity...), "hack/release.sh", op, version); err != nil {
		t.Fatalf("release after the refusals: %v\n%s", err, out)
	}
	if got, want := strings.Fields(git(t, clone, "tag", "--list", "*-operator/v*", "common/v*", "testsupport/v*")), slices.Sorted(slices.Values([]string{"common/v0.1.0", "testsupport/v0.1.0", op + "/v" + version})); !slices.Equal(got, want) {
		t.Errorf("a release (not a dry run) created the tags %v, want %v", got, want)
	}
	if files := snapshot(t, dist); len(files) != 6 {
		t.Errorf("the release wrote %d files, want the 6 artefacts (no work directory left): %v", len(files), slices.Sorted(maps.Keys(files)))
	}
}

// artefacts checks one operator's release directory.
type artefacts struct {
	t                                     *testing.T
	clone, dir, op, version, commit, date string
	env                                   map[string]string
}

func (a artefacts) path(name string) string { return filepath.Join(a.dir, name) }

func (a artefacts) check() {
	t := a.t
	bin, img, chart, crds := a.op+"-linux-amd64", a.op+"-"+a.version+"-image.tar", a.op+"-"+a.version+".tgz", a.op+"-"+a.version+"-crds.yaml"
	entries, err := os.ReadDir(a.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"SHA256SUMS", bin, img, crds, chart, "index.yaml"}; !sameSet(names, want) {
		t.Fatalf("artefacts = %v, want %v", names, want)
	}
	a.checksums(names)
	binVersion := a.binary(bin)
	a.image(img, bin)
	a.chart(chart, binVersion)
	a.index()
	a.crds(crds)
}

// checksums: SHA256SUMS lists every other artefact with its digest.
func (a artefacts) checksums(names []string) {
	t := a.t
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, a.path("SHA256SUMS"))), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("SHA256SUMS line %q", line)
		}
		sums[name] = sum
	}
	for _, n := range names {
		if n == "SHA256SUMS" {
			continue
		}
		if got := sha(t, a.path(n)); sums[n] != got {
			t.Errorf("SHA256SUMS says %s is %q; it is %s", n, sums[n], got)
		}
	}
	if len(sums) != len(names)-1 {
		t.Errorf("SHA256SUMS lists %d files, want %d", len(sums), len(names)-1)
	}
}

// binary runs the binary's --version and returns the version it says.
func (a artefacts) binary(bin string) string {
	t := a.t
	out, err := exec.Command(a.path(bin), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
	want := fmt.Sprintf("%s %s (commit %s, built %s, %s)", a.op, a.version, a.commit, a.date, runtime.Version())
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("%s --version = %q, want %q", bin, got, want)
	}
	fields := strings.Fields(string(out))
	if len(fields) < 2 {
		t.Fatalf("%s --version said %q", bin, out)
	}
	return fields[1]
}

// image: the tag is the chart's default image, the labels say the release,
// the one file is the released binary.
func (a artefacts) image(img, bin string) {
	t := a.t
	files := untar(t, a.path(img), false)
	var manifest []struct {
		Config   string
		RepoTags []string
		Layers   []string
	}
	if err := json.Unmarshal(files["manifest.json"], &manifest); err != nil || len(manifest) != 1 {
		t.Fatalf("manifest.json of %s: %v (%d images)", img, err, len(manifest))
	}
	m := manifest[0]
	ref := a.env["REGISTRY"] + "/" + a.op + ":" + a.version
	if !slices.Equal(m.RepoTags, []string{ref}) {
		t.Errorf("image tags = %v, want [%s]", m.RepoTags, ref)
	}
	var cfg struct {
		Created string
		Config  struct {
			Labels     map[string]string
			User       string
			Entrypoint []string
		}
	}
	if err := json.Unmarshal(files[m.Config], &cfg); err != nil {
		t.Fatalf("image config: %v", err)
	}
	const p = "org.opencontainers.image."
	want := map[string]string{
		p + "title": a.op, p + "version": a.version, p + "revision": a.commit, p + "created": a.date,
		p + "source": a.env["SOURCE"], p + "licenses": a.env["LICENSES"],
	}
	if !maps.Equal(cfg.Config.Labels, want) {
		t.Errorf("image labels = %v, want %v", cfg.Config.Labels, want)
	}
	if !strings.HasPrefix(cfg.Created, strings.TrimSuffix(a.date, "Z")) {
		t.Errorf("image created = %s, want the commit's date %s", cfg.Created, a.date)
	}
	if cfg.Config.User != "65532:65532" || !slices.Equal(cfg.Config.Entrypoint, []string{"/manager"}) {
		t.Errorf("image user %q entrypoint %v", cfg.Config.User, cfg.Config.Entrypoint)
	}
	if len(m.Layers) != 1 {
		t.Fatalf("image layers = %v, want one", m.Layers)
	}
	// One file, the released binary, executable; nothing else (no shell,
	// no package manager) on the empty base.
	layer, headers := entries(t, files[m.Layers[0]])
	if len(headers) != 1 || headers["manager"] == nil {
		t.Fatalf("image files = %v, want only /manager", slices.Sorted(maps.Keys(headers)))
	}
	if mode := headers["manager"].Mode; mode&0o111 == 0 {
		t.Errorf("/manager mode %o is not executable", mode)
	}
	if got, want := hash(layer["manager"]), sha(t, a.path(bin)); got != want {
		t.Errorf("the image's /manager (sha256 %s) is not the released binary (%s)", got, want)
	}
}

// chart: version and appVersion are the binary's version; helm lint passes;
// the default image is the released one.
func (a artefacts) chart(chart, binVersion string) {
	t := a.t
	files := untar(t, a.path(chart), true)
	meta := string(files[a.op+"/Chart.yaml"])
	for _, key := range []string{"version", "appVersion"} {
		if got := yamlScalar(meta, key); got != binVersion || got != a.version {
			t.Errorf("packaged Chart.yaml %s = %q; the binary says %q, the release is %q", key, got, binVersion, a.version)
		}
	}
	if files[a.op+"/charts/operator-lib/Chart.yaml"] == nil {
		t.Errorf("the packaged chart does not hold its library chart operator-lib")
	}
	helm := strings.TrimSpace(mustRun(t, a.clone, "hack/tools.sh", "--path", "helm"))
	mustRun(t, a.clone, helm, "lint", a.path(chart))
	rendered := mustRun(t, a.clone, helm, "template", "r", a.path(chart), "--namespace", "ops", "--kube-version", "1.36.0")
	image := "image: " + a.env["REGISTRY"] + "/" + a.op + ":" + a.version
	if !strings.Contains(rendered, image) {
		t.Errorf("the packaged chart does not render %s by default", image)
	}
}

// index: the chart repository entry of this release.
func (a artefacts) index() {
	t := a.t
	index := readFile(t, a.path("index.yaml"))
	url := a.env["SOURCE"] + "/releases/download/" + a.op + "/v" + a.version + "/" + a.op + "-" + a.version + ".tgz"
	for _, want := range []string{"name: " + a.op, "appVersion: " + a.version, url, "digest: " + sha(t, a.path(a.op+"-"+a.version+".tgz"))} {
		if !strings.Contains(index, want) {
			t.Errorf("index.yaml lacks %q:\n%s", want, index)
		}
	}
}

// crds: the one-file CRDs hold every CRD of the chart verbatim.
func (a artefacts) crds(crds string) {
	t := a.t
	all := readFile(t, a.path(crds))
	files, err := filepath.Glob(filepath.Join(a.clone, "charts", a.op, "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in charts/%s/crds: %v", a.op, err)
	}
	for _, f := range files {
		if !strings.Contains(all, readFile(t, f)) {
			t.Errorf("%s does not hold %s", crds, filepath.Base(f))
		}
	}
}

// cloneTree clones the repository at a commit of its working tree's tracked
// files (git stash create; HEAD when nothing changed), sharing its objects.
func cloneTree(t *testing.T) (dir, commit string) {
	t.Helper()
	root := git(t, ".", "rev-parse", "--show-toplevel")
	rev := git(t, root, "stash", "create")
	if rev == "" {
		rev = git(t, root, "rev-parse", "HEAD")
	}
	dir = filepath.Join(t.TempDir(), "tree")
	git(t, root, "clone", "-q", "--shared", "--no-checkout", root, dir)
	git(t, dir, "checkout", "-q", "--detach", rev)
	// The release tags of a released tree would refuse the re-release and
	// hide the tags a run creates: the clone starts without any.
	if tags := git(t, dir, "tag", "--list", "*-operator/v*", "common/v*", "testsupport/v*"); tags != "" {
		git(t, dir, append([]string{"tag", "-d"}, strings.Fields(tags)...)...)
	}
	return dir, git(t, dir, "rev-parse", "HEAD")
}

// operators are the tree's operator modules: <name>-operator with a cmd.
func operators(t *testing.T, root string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root, "*-operator", "cmd"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no operators in %s: %v", root, err)
	}
	var ops []string
	for _, d := range dirs {
		ops = append(ops, filepath.Base(filepath.Dir(d)))
	}
	return ops
}

var entry = regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+[^\]]*)\] - \d{4}-\d{2}-\d{2}$`)

// newestVersion is the version of the first dated entry of the changelog.
func newestVersion(t *testing.T, root, op string) string {
	t.Helper()
	m := entry.FindStringSubmatch(readFile(t, filepath.Join(root, op, "CHANGELOG.md")))
	if m == nil {
		t.Fatalf("%s/CHANGELOG.md has no dated release entry", op)
	}
	return m[1]
}

// releaseEnv reads hack/release.env.
func releaseEnv(t *testing.T, root string) map[string]string {
	t.Helper()
	env := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(readFile(t, filepath.Join(root, "hack", "release.env"))))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			env[k] = v
		}
	}
	for _, k := range []string{"REGISTRY", "SOURCE", "LICENSES"} {
		if env[k] == "" {
			t.Fatalf("hack/release.env sets no %s", k)
		}
	}
	return env
}

type fileState struct {
	sum     string
	modTime int64
}

// snapshot maps every file under dir to its digest and modification time.
func snapshot(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fileState{sum: sha(t, p), modTime: info.ModTime().UnixNano()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// untar reads the regular files of a (gzipped) tarball.
func untar(t *testing.T, path string, gzipped bool) map[string][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if gzipped {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return untarBytes(t, b)
}

// untarBytes reads the regular files of a tar stream.
func untarBytes(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	files, _ := entries(t, b)
	return files
}

// entries reads a tar stream, gunzipping it first when it is gzipped: the
// content of each regular file, and the header of every entry.
func entries(t *testing.T, b []byte) (map[string][]byte, map[string]*tar.Header) {
	t.Helper()
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	files, headers := map[string][]byte{}, map[string]*tar.Header{}
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, headers
		}
		if err != nil {
			t.Fatal(err)
		}
		headers[strings.TrimPrefix(h.Name, "./")] = h
		if h.Typeflag != tar.TypeReg {
			continue
		}
		content, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimPrefix(h.Name, "./")] = content
	}
}

// yamlScalar reads a top-level `key: value` of a simple YAML document.
func yamlScalar(doc, key string) string {
	for _, line := range strings.Split(doc, "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

func sha(t *testing.T, path string) string {
	t.Helper()
	return hash([]byte(readFile(t, path)))
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// gitIdentity lets git write commits (stash create, the tests' commits) on a
// machine without a configured user.
var gitIdentity = []string{
	"GIT_AUTHOR_NAME=release test", "GIT_AUTHOR_EMAIL=release-test@invalid",
	"GIT_COMMITTER_NAME=release test", "GIT_COMMITTER_EMAIL=release-test@invalid",
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := run(dir, append([]string{"TZ=UTC"}, gitIdentity...), "git", args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func mustRun(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := run(dir, nil, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// run runs a command in dir with extra environment, returning its combined output.
func run(dir string, env []string, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
