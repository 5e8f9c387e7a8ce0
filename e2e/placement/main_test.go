package placement_test

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
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/operator"
	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// What the suite shares: the cluster, an admin client, the operator
// process, and the machine-side pieces (MariaDB, stand-ins, pod runner).
var (
	mgmt  *cluster.Cluster
	k8s   client.Client
	db    *localsvc.MariaDB
	op    *operatorProcess
	local *machine
	root  string
)

const (
	operatorNamespace = "placement-system"
	clustersNamespace = "c5c3-clusters"
	releaseName       = "placement"
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) (code int) {
	ctrl.SetLogger(zap.New(zap.Level(zapcore.Level(logLevel()))))
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "e2e set-up:", err)
		return 1
	}
	defer func() {
		if left := localsvc.Leftovers(); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "e2e: processes left running:", left)
			code = 1
		}
	}()
	var err error
	if root, err = testenv.RepoRoot(); err != nil {
		return fail(err)
	}
	if mgmt, err = cluster.Up("e2e-placement"); err != nil {
		return fail(err)
	}
	defer keepOrDown(mgmt, &code)
	if k8s, err = client.New(mgmt.Config, client.Options{Scheme: operator.NewScheme(placementv1.AddToScheme)}); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := installCRDs(mgmt, false); err != nil {
		return fail(err)
	}
	eso, err := startESO(mgmt)
	if err != nil {
		return fail(err)
	}
	defer func() { _ = eso.Stop(10 * time.Second) }()
	if cluster.Kind() && hostIP == "" {
		return fail(fmt.Errorf("E2E_PROVIDER=kind needs E2E_HOST_IP, the host's address on the kind network (hack/e2e-kind.sh sets it)"))
	}
	if db, err = localsvc.StartMariaDBWith(localsvc.MariaDBOptions{Bind: serverAddress()}); err != nil {
		return fail(err)
	}
	defer func() { _ = db.Stop() }()
	if local, err = startMachine(ctx, mgmt.Config, db); err != nil {
		return fail(err)
	}
	defer local.stop()
	if err := helmInstall(ctx); err != nil {
		return fail(err)
	}
	if op, err = newOperator(ctx); err != nil {
		return fail(err)
	}
	defer op.stop()
	if err := op.start(); err != nil {
		return fail(err)
	}
	if err := prepareCluster(ctx, k8s); err != nil {
		return fail(err)
	}
	return m.Run()
}

// keepOrDown deletes the cluster unless E2E_KEEP is set (then a failed
// run can be inspected with hack/cluster.sh kubeconfig e2e-placement).
func keepOrDown(c *cluster.Cluster, code *int) {
	if os.Getenv("E2E_KEEP") != "" {
		fmt.Fprintf(os.Stderr, "e2e: cluster %s kept: %s\n", c.Name, c.Kubeconfig)
		return
	}
	if err := c.Down(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		*code = 1
	}
}

// installCRDs applies the third-party CRDs: ESO and mariadb-operator, and
// Gateway API only when asked (a scenario installs it later).
func installCRDs(c *cluster.Cluster, gateway bool) error {
	files, err := gatewayCRDs(gateway)
	if err != nil {
		return err
	}
	args := []string{"apply", "--server-side", "--force-conflicts"}
	for _, f := range files {
		args = append(args, "-f", f)
	}
	if _, err := c.Kubectl(args...); err != nil {
		return err
	}
	wait := append([]string{"wait", "--for=condition=Established", "--timeout=60s"}, args[3:]...)
	_, err = c.Kubectl(wait...)
	return err
}

// gatewayCRDs lists the third-party CRD files: without Gateway API (with
// every ESO kind, which the real ESO controller watches), or (gateway true)
// only Gateway API's.
func gatewayCRDs(gateway bool) ([]string, error) {
	if gateway {
		return testenv.CRDFiles("gateway-only")
	}
	return testenv.CRDFiles("without-gateway", "--all-eso")
}

// prepareCluster creates what every Placement shares: the default
// ClusterSecretStore (validated by the real ESO) and the target-cluster
// namespace.
func prepareCluster(ctx context.Context, c client.Client) error {
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: clustersNamespace}}); client.IgnoreAlreadyExists(err) != nil {
		return err
	}
	return createStore(ctx, c)
}

// hostIP is, on kind, the host's address on the kind network: pods reach
// the MariaDB there and the API server reaches the webhooks.
var hostIP = os.Getenv("E2E_HOST_IP")

// serverAddress is where the suite's servers listen: loopback with kwok,
// the kind network's host address on kind.
func serverAddress() string {
	if cluster.Kind() {
		return hostIP
	}
	return "127.0.0.1"
}

func logLevel() int8 {
	if os.Getenv("E2E_VERBOSE") != "" {
		return -1
	}
	return 2
}

func repoPath(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }
