package controller_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/testenv"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/controller"
	"github.com/c5c3/openstack-operators/glance-operator/internal/manager"
)

// The suite runs the real manager (both controllers) in-process against a
// real kube-apiserver and etcd. Simulators (common/testenv) write the status
// ESO, mariadb-operator and the Deployment/Job controllers would write; the
// API health probe hits a local HTTP stand-in per test, since no glance-api
// runs here.
var (
	k8s        client.Client
	cfg        *rest.Config
	reconciler *controller.GlanceReconciler
	writes     testenv.WriteCounter
	api        = &testenv.ProbeURLs{}
	suite      = &testenv.Suite{Writes: &writes, Dump: dumpGlances}
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	level := zapcore.Level(2)
	if os.Getenv("TEST_VERBOSE") != "" {
		level = -1
	}
	ctrl.SetLogger(zap.New(zap.UseDevMode(true), zap.Level(level)))
	env, c, err := testenv.Start(testenv.Options{CRDPaths: []string{filepath.Join("..", "..", "config", "crd")}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	cfg = c
	k8s, err = client.New(cfg, client.Options{Scheme: operator.NewScheme(glancev1.AddToScheme)})
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
		MaxConcurrentReconciles: 2, AbandonGrace: 3 * time.Second, OperatorNamespace: "glance-system",
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

const (
	clustersNamespace = "c5c3-clusters"
	// clusterDomain is the manager's --cluster-domain.
	clusterDomain = "c5c3.test"
)

// dumpGlances prints every Glance's and GlanceBackend's conditions.
func dumpGlances() string {
	var b strings.Builder
	var gl glancev1.GlanceList
	if err := k8s.List(context.Background(), &gl); err != nil {
		return err.Error()
	}
	for _, g := range gl.Items {
		fmt.Fprintf(&b, "Glance %s/%s gen %d phase %q installed %q target %q:\n", g.Namespace, g.Name, g.Generation,
			g.Status.UpgradePhase, g.Status.InstalledRelease, g.Status.TargetRelease)
		for _, c := range g.Status.Conditions {
			fmt.Fprintf(&b, "  %s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	var bl glancev1.GlanceBackendList
	if err := k8s.List(context.Background(), &bl); err != nil {
		return err.Error()
	}
	for _, x := range bl.Items {
		fmt.Fprintf(&b, "GlanceBackend %s/%s:\n", x.Namespace, x.Name)
		for _, c := range x.Status.Conditions {
			fmt.Fprintf(&b, "  %s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	return b.String()
}
