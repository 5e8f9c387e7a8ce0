package placement_test

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

// operatorProcess is the operator binary running on this machine with the
// chart's ServiceAccount token: every request it makes is checked against
// the chart's RBAC.
type operatorProcess struct {
	dir, bin, kubeconfig, certDir string
	ports                         ports
	proc                          *localsvc.Proc
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

var operatorPorts ports

// helmInstall installs the chart; the webhooks point at the operator
// process on loopback (webhook.url).
func helmInstall(ctx context.Context) error {
	var err error
	if operatorPorts, err = freePorts(); err != nil {
		return err
	}
	helm, err := mgmt.Tool("helm")
	if err != nil {
		return err
	}
	chart := repoPath("charts", "placement-operator")
	if out, err := exec.CommandContext(ctx, helm, "dependency", "build", chart).CombinedOutput(); err != nil {
		return fmt.Errorf("helm dependency build: %w: %s", err, out)
	}
	cmd := exec.CommandContext(ctx, helm, "install", releaseName, chart, "--kubeconfig", mgmt.Kubeconfig,
		"--namespace", operatorNamespace, "--create-namespace",
		"--set", "webhook.url=https://"+serverAddress()+":"+strconv.Itoa(operatorPorts.webhook),
		"--set", "operator.clustersNamespace="+clustersNamespace)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("helm install: %w: %s", err, out)
	}
	return nil
}

// newOperator builds the binary and writes a kubeconfig holding a token of
// the chart's ServiceAccount, and the webhook certificate the chart made.
func newOperator(ctx context.Context) (*operatorProcess, error) {
	dir, err := os.MkdirTemp("", "e2e-operator")
	if err != nil {
		return nil, err
	}
	o := &operatorProcess{dir: dir, bin: filepath.Join(dir, "placement-operator"), kubeconfig: filepath.Join(dir, "kubeconfig"),
		certDir: filepath.Join(dir, "certs"), ports: operatorPorts}
	build := exec.CommandContext(ctx, "go", "build", "-o", o.bin, "./placement-operator/cmd")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the operator: %w: %s", err, out)
	}
	cs, err := kubernetes.NewForConfig(mgmt.Config)
	if err != nil {
		return nil, err
	}
	sa := releaseName + "-placement-operator"
	tok, err := cs.CoreV1().ServiceAccounts(operatorNamespace).CreateToken(ctx, sa,
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
	if err := k8s.Get(ctx, client.ObjectKey{Namespace: operatorNamespace, Name: sa + "-webhook-cert"}, &cert); err != nil {
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

// start runs the operator with the chart's flags, except for addresses
// (loopback) and --probe-url-annotation (the pod runner names the local
// API; on kind, --probe-via-apiserver).
func (o *operatorProcess) start() error {
	env := append(localsvc.BaseEnv(o.dir), "KUBECONFIG="+o.kubeconfig, "POD_NAMESPACE="+operatorNamespace)
	argv := []string{o.bin,
		"--leader-elect=true",
		"--metrics-bind-address=127.0.0.1:" + strconv.Itoa(o.ports.metrics),
		"--health-probe-bind-address=127.0.0.1:" + strconv.Itoa(o.ports.health),
		"--enable-webhooks=true",
		"--webhook-port=" + strconv.Itoa(o.ports.webhook),
		"--webhook-cert-dir=" + o.certDir,
		"--clusters-namespace=" + clustersNamespace,
		"--abandon-grace=20s",
		"--zap-log-level=info",
	}
	if cluster.Kind() {
		// Real pods: the probe reaches them through the API server.
		argv = append(argv, "--probe-via-apiserver")
	} else {
		argv = append(argv, "--probe-url-annotation")
	}
	p, err := localsvc.Start(localsvc.ProcSpec{Name: "placement-operator", Dir: o.dir, Argv: argv, Env: env})
	if err != nil {
		return err
	}
	o.proc = p
	return localsvc.WaitHTTP(p, "http://127.0.0.1:"+strconv.Itoa(o.ports.health)+"/readyz", http.StatusOK, 2*time.Minute)
}

// kill ends the operator abruptly (SIGKILL), as a node failure would.
func (o *operatorProcess) kill() {
	if o.proc != nil {
		_ = o.proc.Stop(0)
	}
}

// restart kills the operator and starts it again.
func (o *operatorProcess) restart() error {
	o.kill()
	return o.start()
}

func (o *operatorProcess) stop() {
	if o.proc != nil {
		_ = o.proc.Stop(15 * time.Second)
	}
	if os.Getenv("E2E_KEEP") != "" {
		fmt.Fprintf(os.Stderr, "e2e: operator log kept: %s\n", o.proc.LogPath)
		return
	}
	_ = os.RemoveAll(o.dir)
}

// metrics returns the operator's Prometheus text.
func (o *operatorProcess) metrics() (string, error) {
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(o.ports.metrics) + "/metrics") //nolint:noctx // loopback scrape
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
