package suite

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// Operator is the operator binary running on this machine with the
// chart's ServiceAccount token: every request it makes is checked against
// the chart's RBAC.
type Operator struct {
	o                             Options
	dir, bin, kubeconfig, certDir string
	ports                         ports
	proc                          *localsvc.Proc
	mgmt                          *cluster.Cluster
	// name names the process and its log: the chart's name, or a replica's.
	name string
}

// ports the operator process listens on, all on loopback.
type ports struct{ webhook, metrics, health int }

func freePorts() (ports, error) {
	var p ports
	for _, f := range []*int{&p.webhook, &p.metrics, &p.health} {
		n, err := localsvc.FreePort()
		if err != nil {
			return p, err
		}
		*f = n
	}
	return p, nil
}

// helmInstall installs the operator's chart on mgmt; the webhooks point at
// the operator process on loopback (webhook.url), at the ports it returns.
func helmInstall(ctx context.Context, mgmt *cluster.Cluster, o Options) (ports, error) {
	p, err := freePorts()
	if err != nil {
		return p, err
	}
	helm, err := mgmt.Tool("helm")
	if err != nil {
		return p, err
	}
	chart := filepath.Join(mgmt.Root(), "charts", o.Chart)
	if out, err := exec.CommandContext(ctx, helm, "dependency", "build", chart).CombinedOutput(); err != nil {
		return p, fmt.Errorf("helm dependency build: %w: %s", err, out)
	}
	args := []string{"install", o.Release, chart, "--kubeconfig", mgmt.Kubeconfig,
		"--namespace", o.OperatorNamespace, "--create-namespace",
		"--set", "webhook.url=https://" + ServerAddress() + ":" + strconv.Itoa(p.webhook),
		"--set", "operator.clustersNamespace=" + ClustersNamespace}
	for _, v := range o.HelmSet {
		args = append(args, "--set", v)
	}
	cmd := exec.CommandContext(ctx, helm, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return p, fmt.Errorf("helm install: %w: %s", err, out)
	}
	return p, nil
}

// newOperator builds the binary and writes a kubeconfig holding a token of
// the chart's ServiceAccount, and the webhook certificate the chart made.
func newOperator(ctx context.Context, mgmt *cluster.Cluster, k8s client.Client, opts Options, p ports) (*Operator, error) {
	dir, err := os.MkdirTemp("", "e2e-operator")
	if err != nil {
		return nil, err
	}
	o := &Operator{o: opts, dir: dir, bin: filepath.Join(dir, opts.Chart), kubeconfig: filepath.Join(dir, "kubeconfig"),
		certDir: filepath.Join(dir, "certs"), ports: p, mgmt: mgmt, name: opts.Chart}
	build := exec.CommandContext(ctx, "go", "build", "-o", o.bin, "./"+opts.Chart+"/cmd")
	build.Dir = mgmt.Root()
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the operator: %w: %s", err, out)
	}
	cs, err := kubernetes.NewForConfig(mgmt.Config)
	if err != nil {
		return nil, err
	}
	sa := opts.Release + "-" + opts.Chart
	tok, err := cs.CoreV1().ServiceAccounts(opts.OperatorNamespace).CreateToken(ctx, sa,
		&authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To(int64(24 * 3600))}}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("token of ServiceAccount %s: %w", sa, err)
	}
	asSA := &rest.Config{Host: mgmt.Config.Host, BearerToken: tok.Status.Token, TLSClientConfig: rest.TLSClientConfig{
		CAFile: mgmt.Config.CAFile, CAData: mgmt.Config.CAData}}
	kc, err := cluster.EmbeddedKubeconfig(asSA)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(o.kubeconfig, kc, 0o600); err != nil {
		return nil, err
	}
	var cert corev1.Secret
	if err := k8s.Get(ctx, client.ObjectKey{Namespace: opts.OperatorNamespace, Name: sa + "-webhook-cert"}, &cert); err != nil {
		return nil, fmt.Errorf("webhook certificate from the chart: %w", err)
	}
	if err := os.MkdirAll(o.certDir, 0o700); err != nil {
		return nil, err
	}
	for _, k := range []string{"tls.crt", "tls.key"} {
		if err := os.WriteFile(filepath.Join(o.certDir, k), cert.Data[k], 0o600); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Start runs the operator with the chart's flags, except for addresses
// (loopback) and --probe-url-annotation (the pod runner names the local
// API; on kind, --probe-via-apiserver).
func (o *Operator) Start() error { return o.StartWith() }

// StartWith is Start with more flags after the suite's (a later flag of
// the same name wins), for this start only.
func (o *Operator) StartWith(extra ...string) error {
	env := append(localsvc.BaseEnv(o.dir), "KUBECONFIG="+o.kubeconfig, "POD_NAMESPACE="+o.o.OperatorNamespace)
	argv := []string{o.bin,
		"--leader-elect=true",
		"--metrics-bind-address=127.0.0.1:" + strconv.Itoa(o.ports.metrics),
		"--health-probe-bind-address=127.0.0.1:" + strconv.Itoa(o.ports.health),
		"--enable-webhooks=true",
		"--webhook-port=" + strconv.Itoa(o.ports.webhook),
		"--webhook-cert-dir=" + o.certDir,
		"--clusters-namespace=" + ClustersNamespace,
		"--abandon-grace=20s",
		"--zap-log-level=info",
	}
	argv = append(argv, o.o.OperatorArgs...)
	argv = append(argv, extra...)
	if cluster.Kind() {
		// Real pods: the probe reaches them through the API server.
		argv = append(argv, "--probe-via-apiserver")
	} else {
		argv = append(argv, "--probe-url-annotation")
	}
	p, err := localsvc.Start(localsvc.ProcSpec{Name: o.name, Dir: o.dir, Argv: argv, Env: env})
	if err != nil {
		return err
	}
	o.proc = p
	return localsvc.WaitHTTP(p, "http://127.0.0.1:"+strconv.Itoa(o.ports.health)+"/readyz", http.StatusOK, 2*time.Minute)
}

// HelmUpgrade upgrades the operator's release with the values it has and
// the value flags given (--set k=v, --set-json k=json), as a user changes an
// install; the webhook certificate
// is kept (the chart looks the existing one up). The process is not
// touched: Terminate and Start it around the upgrade to run it with the
// new flags.
func (o *Operator) HelmUpgrade(ctx context.Context, values ...string) error {
	helm, err := o.mgmt.Tool("helm")
	if err != nil {
		return err
	}
	args := []string{"upgrade", o.o.Release, filepath.Join(o.mgmt.Root(), "charts", o.o.Chart), "--kubeconfig", o.mgmt.Kubeconfig,
		"--namespace", o.o.OperatorNamespace, "--reuse-values"}
	args = append(args, values...)
	if out, err := exec.CommandContext(ctx, helm, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("helm upgrade: %w: %s", err, out)
	}
	return nil
}

// Replica is a second process of the same operator, not started: the same
// binary, ServiceAccount token (so the same chart RBAC), webhook
// certificate and flags, its own ports and log. It shares the first's
// files: end it with Terminate or Kill, never Stop.
func (o *Operator) Replica() (*Operator, error) {
	p, err := freePorts()
	if err != nil {
		return nil, err
	}
	r := *o
	r.ports, r.proc, r.name = p, nil, o.name+"-replica"
	return &r, nil
}

// Namespace is the operator's release namespace (its Lease is there).
func (o *Operator) Namespace() string { return o.o.OperatorNamespace }

// Exited reports whether the operator's process has ended since it was
// last started (on its own or by Kill/Terminate).
func (o *Operator) Exited() bool { return o.proc == nil || o.proc.Exited() }

// Pid is the operator's process id.
func (o *Operator) Pid() int { return o.proc.Pid() }

// Kill ends the operator abruptly (SIGKILL), as a node failure would.
func (o *Operator) Kill() {
	if o.proc != nil {
		_ = o.proc.Stop(0)
	}
}

// Terminate stops the operator as a rolling update does (SIGTERM: it
// releases its lease) and keeps its files, so that Start runs it again.
func (o *Operator) Terminate() error {
	if o.proc == nil {
		return nil
	}
	return o.proc.Stop(15 * time.Second)
}

// Restart kills the operator and starts it again.
func (o *Operator) Restart() error {
	o.Kill()
	return o.Start()
}

// Stop stops the operator and removes its files (kept with E2E_KEEP).
func (o *Operator) Stop() {
	if o.proc != nil {
		_ = o.proc.Stop(15 * time.Second)
	}
	if os.Getenv("E2E_KEEP") != "" {
		fmt.Fprintf(os.Stderr, "e2e: operator log kept: %s\n", o.proc.LogPath)
		return
	}
	_ = os.RemoveAll(o.dir)
}

// Metrics returns the operator's Prometheus text.
func (o *Operator) Metrics() (string, error) {
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(o.ports.metrics) + "/metrics") //nolint:noctx // loopback scrape
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
