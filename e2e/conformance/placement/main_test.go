package placement_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/inprocess"
)

// The servers every test shares: starting Keystone alone costs ~10 s of
// keystone-manage, so one set serves the whole package.
var (
	db       *localsvc.MariaDB
	cache    *localsvc.Memcached
	keystone *localsvc.Keystone
	k8s      client.Client
	probes   = &testenv.ProbeURLs{}
)

// The Keystone service user every Placement authenticates as.
const (
	serviceProject  = "service"
	serviceUser     = "placement"
	serviceUserPass = "placement-keystone-pw"
	serviceRole     = "service"
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) (code int) {
	defer func() {
		if left := localsvc.Leftovers(); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "conformance: processes left running:", left)
			code = 1
		}
	}()
	ctrl.SetLogger(zap.New(zap.Level(zapcore.ErrorLevel)))
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "conformance set-up:", err)
		return 1
	}
	var err error
	if db, err = localsvc.StartMariaDB(); err != nil {
		return fail(err)
	}
	defer stop("mariadb", db.Stop, &code)
	if cache, err = localsvc.StartMemcached(); err != nil {
		return fail(err)
	}
	defer stop("memcached", cache.Stop, &code)
	if keystone, err = localsvc.StartKeystone(db); err != nil {
		return fail(err)
	}
	defer stop("keystone", keystone.Stop, &code)
	if err := keystone.ServiceUser(serviceProject, serviceUser, serviceUserPass, serviceRole); err != nil {
		return fail(err)
	}

	root, err := testenv.RepoRoot()
	if err != nil {
		return fail(err)
	}
	env, cfg, err := testenv.Start(testenv.Options{CRDPaths: []string{filepath.Join(root, "placement-operator", "config", "crd")}})
	if err != nil {
		return fail(err)
	}
	defer func() { _ = env.Stop() }()
	if k8s, err = client.New(cfg, client.Options{Scheme: operator.NewScheme(placementv1.AddToScheme)}); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := startOperator(ctx, cfg); err != nil {
		return fail(err)
	}
	if err := testenv.SecretStore(ctx, k8s, "", shared.DefaultSecretStoreName, true); err != nil {
		return fail(err)
	}
	return m.Run()
}

// startOperator runs the operator's real manager in this process, its
// health probe sent to the placement-api the test started for the CR.
func startOperator(ctx context.Context, cfg *rest.Config) error {
	opts := &inprocess.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: 10 * time.Minute, ClustersNamespace: "c5c3-clusters",
		MaxConcurrentReconciles: 2, OperatorNamespace: "placement-system", AbandonGrace: time.Minute,
	}
	mgr, err := inprocess.New(ctx, cfg, opts, probes.URL)
	if err != nil {
		return err
	}
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "operator:", err)
		}
	}()
	return nil
}

func stop(name string, f func() error, code *int) {
	if err := f(); err != nil {
		fmt.Fprintf(os.Stderr, "stopping %s: %v\n", name, err)
		*code = 1
	}
}
