package controller_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/placement-operator/internal/controller"
	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

// The suite runs the real manager in-process against a real kube-apiserver
// and etcd. Simulators (common/testenv) write the status ESO, mariadb-operator
// and the Deployment/Job controllers would write; the API health probe hits
// a local HTTP stand-in per test (FakeAPI), since no placement-api runs here.
var (
	k8s        client.Client
	cfg        *rest.Config
	reconciler *controller.PlacementReconciler
	writes     writeCounter
	api        = &testenv.ProbeURLs{}
	suite      = &testenv.Suite{Writes: &writes.WriteCounter, Dump: dumpPlacements}
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctrl.SetLogger(zap.New(zap.UseDevMode(true), zap.Level(zapcore.Level(zapLevel()))))
	env, c, err := testenv.Start(testenv.Options{CRDPaths: []string{filepath.Join("..", "..", "config", "crd")}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	cfg = c
	k8s, err = client.New(cfg, client.Options{Scheme: schemeForTests()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	suite.Client = k8s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mgrCfg := rest.CopyConfig(cfg)
	mgrCfg.Wrap(writes.Wrap)
	opts := &manager.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: 10 * time.Minute, ClustersNamespace: clustersNamespace,
		MaxConcurrentReconciles: 2, AbandonGrace: 3 * time.Second, OperatorNamespace: "placement-system",
		// Not cluster.local, so the tests see that --cluster-domain reaches the URLs.
		ClusterDomain: clusterDomain,
	}
	mgr, r, err := manager.New(ctx, mgrCfg, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	reconciler = r
	r.ProbeURL = api.URL
	r.Probe.Timeout = 2 * time.Second
	r.Probe.TTL = time.Second
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
		}
	}()
	if err := k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: clustersNamespace}}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func zapLevel() int8 {
	if os.Getenv("TEST_VERBOSE") != "" {
		return -1
	}
	return 2 // errors only
}

const (
	clustersNamespace = "c5c3-clusters"
	// clusterDomain is the manager's --cluster-domain.
	clusterDomain = "c5c3.test"
)

// writeCounter counts mutating requests the manager sends, by verb and path.
type writeCounter struct{ testenv.WriteCounter }

func (w *writeCounter) snapshot() map[string]int { return w.Snapshot() }

// FakeAPI is a local HTTP stand-in for placement-api.
var FakeAPI = testenv.FakeAPI
