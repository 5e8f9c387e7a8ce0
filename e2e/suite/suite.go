// Package suite is what every operator's e2e suite shares: a local control
// plane (kwok nodes, or kind), the third-party CRDs, the real External
// Secrets Operator with the fake provider, a real MariaDB behind
// mariadb-operator stand-ins, the pod runner that runs the operators' pods
// as processes here, the operator's chart installed with helm and the
// operator binary running on the chart's ServiceAccount token. A suite's
// TestMain is one call to Main.
package suite

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
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// ClustersNamespace holds the target-cluster registrations.
const ClustersNamespace = "c5c3-clusters"

// Options describe one operator's suite.
type Options struct {
	// Cluster names the local control plane, e.g. e2e-placement.
	Cluster string
	// Chart is the operator's chart under charts/, also its module.
	Chart string
	// Release and OperatorNamespace are the helm release.
	Release, OperatorNamespace string
	// AddToScheme registers the operator's kinds with the suite's client.
	AddToScheme func(*runtime.Scheme) error
	// Profiles say how the pod runner runs the operator's pods (given the
	// repository's root).
	Profiles func(root string) []localrun.Profile
	// S3 starts a real S3 server (localsvc.S3) for the operator's stores.
	S3 bool
	// CRDs are more CRD files (relative to the repository root) applied
	// before the operator starts: another operator's kinds it reads.
	CRDs []string
	// HelmSet are more --set values of the chart's install; Namespaces
	// are created before it (a namespace the chart puts a Role into; a
	// site named after a test adopts it).
	HelmSet    []string
	Namespaces []string
	// OperatorArgs are more flags of the operator process.
	OperatorArgs []string
	// Hosts lists more names that resolve to 127.0.0.1 in the pods of a
	// namespace (besides its MariaDBs): servers of the suite that pods
	// reach by an in-cluster Service name.
	Hosts func(ctx context.Context, c client.Reader, namespace string) ([]string, error)
}

// Env is what the suite's tests use.
type Env struct {
	Root    string
	Mgmt    *cluster.Cluster
	K8s     client.Client
	DB      *localsvc.MariaDB
	S3      *localsvc.S3
	Op      *Operator
	Machine *Machine
	// Profiles and Hosts are the pod runner's, for a second cluster's
	// machine.
	Profiles []localrun.Profile
	Hosts    func(ctx context.Context, c client.Reader, namespace string) ([]string, error)
}

// Main brings everything up, fills env, runs the tests and tears down; it
// returns the exit code. A process left running fails the run.
func Main(m *testing.M, o Options, env *Env) (code int) {
	ctrl.SetLogger(zap.New(zap.Level(zapcore.Level(logLevel()))))
	defer func() {
		if left := localsvc.Leftovers(); len(left) > 0 {
			fmt.Fprintln(os.Stderr, "e2e: processes left running:", left)
			code = 1
		}
	}()
	var stops []func()
	defer func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}()
	if err := up(o, env, &stops, &code); err != nil {
		fmt.Fprintln(os.Stderr, "e2e set-up:", err)
		return 1
	}
	return m.Run()
}

func up(o Options, env *Env, stops *[]func(), code *int) error {
	var err error
	if env.Root, err = testenv.RepoRoot(); err != nil {
		return err
	}
	if env.Mgmt, err = cluster.Up(o.Cluster); err != nil {
		return err
	}
	*stops = append(*stops, func() { KeepOrDown(env.Mgmt, code) })
	if env.K8s, err = client.New(env.Mgmt.Config, client.Options{Scheme: managerconfig.NewScheme(o.AddToScheme)}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	*stops = append(*stops, cancel)
	if err := InstallCRDs(env.Mgmt, false); err != nil {
		return err
	}
	var crds []string
	for _, f := range o.CRDs {
		crds = append(crds, filepath.Join(env.Root, f))
	}
	if err := applyCRDs(env.Mgmt, crds); err != nil {
		return err
	}
	eso, err := StartESO(env.Mgmt)
	if err != nil {
		return err
	}
	*stops = append(*stops, func() { _ = eso.Stop(10 * time.Second) })
	if cluster.Kind() && HostIP == "" {
		return fmt.Errorf("E2E_PROVIDER=kind needs E2E_HOST_IP, the host's address on the kind network (hack/e2e-kind.sh sets it)")
	}
	if env.DB, err = localsvc.StartMariaDBWith(localsvc.MariaDBOptions{Bind: ServerAddress()}); err != nil {
		return err
	}
	*stops = append(*stops, func() { _ = env.DB.Stop() })
	if o.S3 {
		if env.S3, err = localsvc.StartS3(); err != nil {
			return err
		}
		*stops = append(*stops, func() { _ = env.S3.Stop() })
	}
	env.Profiles, env.Hosts = o.Profiles(env.Root), o.Hosts
	if env.Machine, err = StartMachine(ctx, env.Mgmt.Config, env.DB, env.Profiles, env.Hosts); err != nil {
		return err
	}
	*stops = append(*stops, env.Machine.Stop)
	for _, ns := range o.Namespaces {
		if err := env.K8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			return err
		}
	}
	ports, err := helmInstall(ctx, env.Mgmt, o)
	if err != nil {
		return err
	}
	if env.Op, err = newOperator(ctx, env.Mgmt, env.K8s, o, ports); err != nil {
		return err
	}
	*stops = append(*stops, env.Op.Stop)
	if err := env.Op.Start(); err != nil {
		return err
	}
	return PrepareCluster(ctx, env.K8s)
}

// KeepOrDown deletes the cluster unless E2E_KEEP is set (then a failed
// run can be inspected with hack/cluster.sh kubeconfig <name>).
func KeepOrDown(c *cluster.Cluster, code *int) {
	if os.Getenv("E2E_KEEP") != "" {
		fmt.Fprintf(os.Stderr, "e2e: cluster %s kept: %s\n", c.Name, c.Kubeconfig)
		return
	}
	if err := c.Down(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		*code = 1
	}
}

// InstallCRDs applies the third-party CRDs: ESO and mariadb-operator, and
// Gateway API only when asked (a scenario installs it later).
func InstallCRDs(c *cluster.Cluster, gateway bool) error {
	files, err := gatewayCRDs(gateway)
	if err != nil {
		return err
	}
	return applyCRDs(c, files)
}

// applyCRDs applies the CRD files (none: nothing) and waits until they are
// Established.
func applyCRDs(c *cluster.Cluster, files []string) error {
	if len(files) == 0 {
		return nil
	}
	args := []string{"apply", "--server-side", "--force-conflicts"}
	for _, f := range files {
		args = append(args, "-f", f)
	}
	if _, err := c.Kubectl(args...); err != nil {
		return err
	}
	wait := append([]string{"wait", "--for=condition=Established", "--timeout=60s"}, args[3:]...)
	_, err := c.Kubectl(wait...)
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

// PrepareCluster creates what every CR shares: the default
// ClusterSecretStore (validated by the real ESO) and the target-cluster
// namespace.
func PrepareCluster(ctx context.Context, c client.Client) error {
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ClustersNamespace}}); client.IgnoreAlreadyExists(err) != nil {
		return err
	}
	return CreateStore(ctx, c)
}

// HostIP is, on kind, the host's address on the kind network: pods reach
// the MariaDB there and the API server reaches the webhooks.
var HostIP = os.Getenv("E2E_HOST_IP")

// ServerAddress is where the suite's servers listen: loopback with kwok,
// the kind network's host address on kind.
func ServerAddress() string {
	if cluster.Kind() {
		return HostIP
	}
	return "127.0.0.1"
}

func logLevel() int8 {
	if os.Getenv("E2E_VERBOSE") != "" {
		return -1
	}
	return 2
}
