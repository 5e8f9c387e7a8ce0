// Package harness starts what every conformance suite shares: MariaDB,
// memcached, Keystone with the service's user, optionally the S3 server, a
// kube-apiserver with the operator's CRDs, and the operator's real manager
// in the test process with its health probe pointed at the API the test
// started. A suite's TestMain is one call to Main.
package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/lib/dialer"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The Keystone project and role of every service user.
const (
	ServiceProject = "service"
	ServiceRole    = "service"
)

// Options describe one suite.
type Options struct {
	// ServiceUser and ServicePassword are the Keystone user the service
	// authenticates as (project ServiceProject, role ServiceRole).
	ServiceUser, ServicePassword string
	// S3 starts the S3 server too.
	S3 bool
	// CRDDir is the operator's CRD directory, relative to the repository
	// root; CRDDirs are more (another operator's kinds the operator reads).
	CRDDir  string
	CRDDirs []string
	// AddToScheme registers the operator's kinds with the test's client.
	AddToScheme func(*runtime.Scheme) error
	// OperatorNamespace is the namespace the operator runs in.
	OperatorNamespace string
	// Releases lists, per Debian suite ("" is the machine's own), the CR
	// releases whose rendered launch mode that suite's service runs.
	Releases map[string][]string
	// Debian, when set, is the only Debian suite whose service this suite
	// can run (the machine's cannot), whatever $CONFORMANCE_DEBIAN says.
	Debian string
	// New builds the operator's manager as its binary does (the module's
	// Operator.NewManager).
	New func(ctx context.Context, cfg *rest.Config, o *bootstrap.Options) (ctrl.Manager, error)
}

// Env is what the suite's tests use.
type Env struct {
	DB       *localsvc.MariaDB
	Cache    *localsvc.Memcached
	Keystone *localsvc.Keystone
	S3       *localsvc.S3
	K8s      client.Client
	// Config reaches the kube-apiserver as its admin.
	Config *rest.Config
	// Resolve is the operator's --resolve table: the in-cluster names of
	// servers the test started (a managed OpenBao instance's Service).
	Resolve *dialer.Table
	// Probes maps CRs to the URL of the API the test started for them.
	Probes *testenv.ProbeURLs
	// Debian names the Debian suite whose services the tests run ("" is
	// the machine's own); Root is its root filesystem ("" for the
	// machine's). Set by $CONFORMANCE_DEBIAN (see DebianEnv).
	Debian, Root string
	// Releases are the CR releases this run covers (Options.Releases of
	// Debian), oldest first.
	Releases []string

	serviceUser, servicePassword string
}

// Main starts everything, fills env, runs the tests and stops everything;
// it returns the exit code. A process left running fails the run.
func Main(m *testing.M, o Options, env *Env) (code int) {
	defer func() {
		if left := localsvc.Leftovers(); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "conformance: processes left running:", left)
			code = 1
		}
	}()
	ctrl.SetLogger(zap.New(zap.Level(zapcore.ErrorLevel)))
	var stops []func() error
	defer func() {
		for i := len(stops) - 1; i >= 0; i-- {
			if err := stops[i](); err != nil {
				fmt.Fprintln(os.Stderr, "conformance tear-down:", err)
				code = 1
			}
		}
	}()
	if err := start(o, env, &stops); err != nil {
		fmt.Fprintln(os.Stderr, "conformance set-up:", err)
		return 1
	}
	return m.Run()
}

// DebianEnv names the Debian suite whose OpenStack services a run starts
// (today: sid, 2026.2); unset, they are the machine's own (bookworm, Zed).
// MariaDB, memcached, Keystone and the S3 server are the machine's either way.
const DebianEnv = "CONFORMANCE_DEBIAN"

func start(o Options, env *Env, stops *[]func() error) error {
	env.serviceUser, env.servicePassword = o.ServiceUser, o.ServicePassword
	var err error
	if env.Debian = cmp.Or(o.Debian, os.Getenv(DebianEnv)); env.Debian != "" {
		if env.Root, err = testenv.DebianRoot(env.Debian); err != nil {
			return err
		}
	}
	if env.Releases = o.Releases[env.Debian]; len(env.Releases) == 0 {
		return fmt.Errorf("the suite names no CR release to run on Debian %q", env.Debian)
	}
	fmt.Fprintf(os.Stderr, "conformance: services of Debian %s: %s\nconformance: CR releases %v\n",
		cmp.Or(env.Debian, "(this machine)"), env.versions("python3-placement", "python3-glance", "python3-barbican", "uwsgi-core"), env.Releases)
	if env.DB, err = localsvc.StartMariaDB(); err != nil {
		return err
	}
	*stops = append(*stops, named("mariadb", env.DB.Stop))
	if env.Cache, err = localsvc.StartMemcached(); err != nil {
		return err
	}
	*stops = append(*stops, named("memcached", env.Cache.Stop))
	if o.S3 {
		if env.S3, err = localsvc.StartS3(); err != nil {
			return err
		}
		*stops = append(*stops, named("s3", env.S3.Stop))
	}
	if env.Keystone, err = localsvc.StartKeystone(env.DB); err != nil {
		return err
	}
	*stops = append(*stops, named("keystone", env.Keystone.Stop))
	if err := env.Keystone.ServiceUser(ServiceProject, o.ServiceUser, o.ServicePassword, ServiceRole); err != nil {
		return err
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		return err
	}
	crds := []string{filepath.Join(root, o.CRDDir)}
	for _, d := range o.CRDDirs {
		crds = append(crds, filepath.Join(root, d))
	}
	te, cfg, err := testenv.Start(testenv.Options{CRDPaths: crds})
	if err != nil {
		return err
	}
	*stops = append(*stops, named("control plane", te.Stop))
	if env.K8s, err = client.New(cfg, client.Options{Scheme: managerconfig.NewScheme(o.AddToScheme)}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	*stops = append(*stops, func() error { cancel(); return nil })
	env.Config = cfg
	env.Probes = &testenv.ProbeURLs{}
	env.Resolve = &dialer.Table{}
	// The API health probe goes to the API the test started for the CR.
	opts := operatorOptions(o.OperatorNamespace, env.Probes.URL)
	opts.Resolve = env.Resolve
	mgr, err := o.New(ctx, cfg, opts)
	if err != nil {
		return err
	}
	go func() {
		if err := mgr.Start(ctx); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "operator:", err)
		}
	}()
	return testenv.SecretStore(ctx, env.K8s, "", serviceapi.DefaultSecretStoreName, true)
}

// versions lists the versions of the Debian packages as installed where the
// run's services come from.
func (e *Env) versions(packages ...string) string {
	out, err := e.inRoot(append([]string{"dpkg-query", "-W", "-f", "${Package} ${Version}; "}, packages...)...).Output()
	if len(out) == 0 && err != nil {
		return err.Error()
	}
	return string(out)
}

// inRoot is the command argv where the run's services come from: chrooted
// into the newer release's root, or on the machine.
func (e *Env) inRoot(argv ...string) *exec.Cmd {
	if e.Root != "" {
		argv = append([]string{"chroot", e.Root}, argv...)
	}
	return exec.Command(argv[0], argv[1:]...) //nolint:gosec // fixed commands of this package
}

func named(name string, stop func() error) func() error {
	return func() error {
		if err := stop(); err != nil {
			return fmt.Errorf("stopping %s: %w", name, err)
		}
		return nil
	}
}

// operatorOptions are the flags a suite's in-process operator runs with:
// no metrics or health listeners, no leader election, target clusters
// from c5c3-clusters, the probe sent to probeURL's answer.
func operatorOptions(operatorNamespace string, probeURL func(client.Object, string) string) *bootstrap.Options {
	return &bootstrap.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: 10 * time.Minute, ClustersNamespace: "c5c3-clusters",
		MaxConcurrentReconciles: 2, OperatorNamespace: operatorNamespace, AbandonGrace: time.Minute,
		ProbeURL: probeURL,
	}
}
