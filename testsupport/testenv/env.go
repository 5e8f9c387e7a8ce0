// Package testenv starts a real kube-apiserver and etcd (envtest, with the
// binaries hack/tools.sh builds from the Go module proxy) loaded with the
// operator's CRDs and the real third-party CRDs of ESO, mariadb-operator and
// Gateway API. Missing binaries are built, never skipped.
package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap/zapcore"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// Options select what the API server serves.
type Options struct {
	// CRDPaths are the operator's own CRD files or directories.
	CRDPaths []string
	// WithoutGatewayAPI leaves the Gateway API CRDs out.
	WithoutGatewayAPI bool
	// WebhookPaths are webhook manifest files or directories to install.
	WebhookPaths []string
}

// Start starts a control plane; call Stop on the returned environment.
func Start(o Options) (*envtest.Environment, *rest.Config, error) {
	assets, err := Assets()
	if err != nil {
		return nil, nil, err
	}
	third, err := ThirdPartyCRDs(!o.WithoutGatewayAPI)
	if err != nil {
		return nil, nil, err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDInstallOptions: envtest.CRDInstallOptions{
			Paths:              append(append([]string{}, o.CRDPaths...), third...),
			ErrorIfPathMissing: true,
		},
		WebhookInstallOptions: envtest.WebhookInstallOptions{Paths: o.WebhookPaths},
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, nil, fmt.Errorf("starting envtest: %w", err)
	}
	return env, cfg, nil
}

// StartForTest starts a control plane for one test, stopped at its end,
// with a context cancelled then.
func StartForTest(t testing.TB, o Options) (*envtest.Environment, *rest.Config, context.Context) {
	t.Helper()
	env, cfg, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return env, cfg, ctx
}

// RepoRoot is the directory holding go.work.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.work above the working directory")
		}
		dir = parent
	}
}

// Assets returns KUBEBUILDER_ASSETS, else builds the binaries with hack/tools.sh.
func Assets() (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir, nil
	}
	return hack("tools.sh", "--envtest-assets")
}

// Tool returns the path of a pinned tool, building it with hack/tools.sh
// first when it is not in the cache yet.
func Tool(name string) (string, error) {
	if _, err := hack("tools.sh", name); err != nil {
		return "", err
	}
	return hack("tools.sh", "--path", name)
}

// ThirdPartyCRDs lists the real CRD files of ESO, mariadb-operator and,
// optionally, Gateway API.
func ThirdPartyCRDs(withGateway bool) ([]string, error) {
	if !withGateway {
		return CRDFiles("without-gateway")
	}
	return CRDFiles("with-gateway")
}

// CRDFiles lists the CRD files hack/crds.sh prints for args (a mode, and
// --all-eso for every ESO kind the real ESO controller watches).
func CRDFiles(args ...string) ([]string, error) {
	out, err := hack("crds.sh", args...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

func hack(script string, args ...string) (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(filepath.Join(root, "hack", script), args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("hack/%s %s: %w", script, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// DebianRoot returns the root filesystem of a newer Debian suite with the
// OpenStack services in it, building it with hack/rootfs.sh first when it
// is not in the cache yet.
func DebianRoot(suite string) (string, error) { return hack("rootfs.sh", suite) }

// Main is a package's TestMain over one control plane: it starts it with o,
// stores its config in cfg, runs the tests, stops it and returns the exit
// code (1 when it cannot start). Controller-runtime logs errors only.
func Main(m *testing.M, o Options, cfg **rest.Config) int {
	ctrl.SetLogger(zap.New(zap.Level(zapcore.ErrorLevel)))
	env, c, err := Start(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	*cfg = c
	defer func() { _ = env.Stop() }()
	return m.Run()
}
