// Package runsuite is the TestMain of an operator's controller suite: a real
// API server, the test client, the operator's real manager. It is apart from
// testenv, which the shared packages' own tests import, because it imports
// the manager and with it most of common.
package runsuite

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Settings of the manager a controller suite runs.
const (
	// ClustersNamespace holds the target-cluster registrations.
	ClustersNamespace = "c5c3-clusters"
	// ClusterDomain is the manager's --cluster-domain: not cluster.local, so
	// the tests see that the flag reaches the URLs.
	ClusterDomain = "c5c3.test"
)

// Main is an operator's controller suite's TestMain: it starts a real
// kube-apiserver and etcd with the CRDs in crdDirs (the operator's, then
// any the tests add for kinds it reads), fills s.Client, runs the
// operator's real manager (op through common/framework/manager, webhooks off) as a
// ServiceAccount of operatorNamespace holding only the generated
// ClusterRole in roleFile, on a config whose transport s.Writes counts,
// probes the API at probes' URLs,
// hands the reconciler and the config to ready, and runs the tests.
// TEST_VERBOSE=1 logs everything.
func Main[R service.EmbedsReconciler](m *testing.M, s *testenv.Suite, crdDirs []string, roleFile string, op bootstrap.Operator[R], operatorNamespace string,
	probes *testenv.ProbeURLs, ready func(R, *rest.Config)) int {
	level := zapcore.Level(2)
	if os.Getenv("TEST_VERBOSE") != "" {
		level = -1
	}
	ctrl.SetLogger(zap.New(zap.UseDevMode(true), zap.Level(level)))
	fail := func(err error) int { fmt.Fprintln(os.Stderr, err); return 1 }
	env, cfg, err := testenv.Start(testenv.Options{CRDPaths: crdDirs})
	if err != nil {
		return fail(err)
	}
	defer func() { _ = env.Stop() }()
	if s.Client, err = client.New(cfg, client.Options{Scheme: managerconfig.NewScheme(op.AddToScheme)}); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mgrCfg, err := asOperator(ctx, s.Client, cfg, roleFile, operatorNamespace)
	if err != nil {
		return fail(err)
	}
	mgrCfg.Wrap(s.Writes.Wrap)
	opts := &bootstrap.Options{
		MetricsAddr: "0", ProbeAddr: "0", SyncPeriod: 10 * time.Minute, ClustersNamespace: ClustersNamespace,
		MaxConcurrentReconciles: 2, AbandonGrace: 3 * time.Second, OperatorNamespace: operatorNamespace, ClusterDomain: ClusterDomain,
		Resolve: &s.Resolve,
	}
	mgr, r, err := bootstrap.New(ctx, mgrCfg, opts, op)
	if err != nil {
		return fail(err)
	}
	core := r.ServiceReconciler()
	core.ProbeURL = probes.URL
	core.Probe.Timeout = 2 * time.Second
	core.Probe.TTL = time.Second
	go func() {
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "manager:", err)
		}
	}()
	if err := s.Client.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ClustersNamespace}}); err != nil {
		return fail(err)
	}
	ready(r, cfg)
	return m.Run()
}
