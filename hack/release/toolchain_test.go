package release

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tools hack/toolchain builds (the Kubernetes binaries, etcd, kwok,
// helm, controller-gen) and the workspace's tests compile hundreds of the
// same packages: client-go, apimachinery, the API types, protobuf, the
// prometheus client. The build cache compiles such a package once for both
// only when both take it from the same module version (and every package
// it imports too); a version apart compiles it twice, and on a fresh
// machine that was 7 CPU minutes of `make test`
// (docs/decisions/toolchain.md).
//
// When this fails, a go.mod of the workspace or of hack/toolchain moved a
// shared module: bring the other to the same version (`go get
// module@version` in hack/toolchain with GOWORK=off, or in the workspace's
// modules), then `go mod tidy`.
func TestToolchainBuildsWithTheWorkspaceVersions(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tools := toolPackages(t, filepath.Join(root, "hack", "toolchain"))
	if len(tools) < 9 {
		t.Fatalf("hack/toolchain names %d tools, want the 9 hack/tools.sh builds from it: %v", len(tools), tools)
	}
	toolDeps := depModules(t, filepath.Join(root, "hack", "toolchain"), []string{"GOWORK=off"}, tools...)

	modules := workspaceModules(t, root)
	patterns := make([]string, 0, len(modules))
	for _, m := range modules {
		patterns = append(patterns, "./"+m+"/...")
	}
	wsDeps := depModules(t, root, nil, append([]string{"-test"}, patterns...)...)

	shared, apart := 0, map[string]string{}
	for pkg, tv := range toolDeps {
		wv, ok := wsDeps[pkg]
		if !ok {
			continue
		}
		shared++
		if tv != wv {
			apart[strings.SplitN(tv, "@", 2)[0]] = tv + " in hack/toolchain, " + wv + " in the workspace"
		}
	}
	// A few hundred packages are compiled by both: far fewer means one of
	// the two lists came out wrong, and the comparison proved nothing.
	if shared < 300 {
		t.Fatalf("only %d packages are compiled by both the toolchain and the workspace; want hundreds", shared)
	}
	for mod, why := range apart {
		t.Errorf("%s is compiled at two versions: %s", mod, why)
	}
	if len(apart) == 0 {
		t.Logf("%d packages compiled by both, each at one version", shared)
	}
}

// toolPackages reads the tool directives of a go.mod.
func toolPackages(t *testing.T, dir string) []string {
	t.Helper()
	var mod struct{ Tool []struct{ Path string } }
	if err := json.Unmarshal(goCmd(t, dir, []string{"GOWORK=off"}, "mod", "edit", "-json"), &mod); err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tool := range mod.Tool {
		tools = append(tools, tool.Path)
	}
	return tools
}

// workspaceModules lists the directories go.work uses.
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(goCmd(t, root, nil, "work", "edit", "-json"), &work); err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, use := range work.Use {
		mods = append(mods, strings.TrimPrefix(use.DiskPath, "./"))
	}
	if len(mods) == 0 {
		t.Fatal("go.work uses no module")
	}
	return mods
}

// depModules maps every non-standard package the arguments compile to the
// module version it is compiled from (a replacement's version where one
// applies).
func depModules(t *testing.T, dir string, env []string, args ...string) map[string]string {
	t.Helper()
	format := `{{if .Module}}{{.ImportPath}} {{.Module.Path}}@{{with .Module.Replace}}{{.Version}}{{else}}{{.Module.Version}}{{end}}{{end}}`
	out := goCmd(t, dir, env, append([]string{"list", "-deps", "-f", format}, args...)...)
	deps := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// Packages of a main module (the workspace's own, a test's
		// variant) have no version: nothing to share.
		if len(f) != 2 || strings.HasSuffix(f[1], "@") {
			continue
		}
		deps[f[0]] = f[1]
	}
	return deps
}

func goCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS="), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return out
}
