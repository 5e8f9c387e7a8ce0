// Package cluster starts the local control planes the e2e suites run on:
// etcd, kube-apiserver, kube-controller-manager and kube-scheduler built
// from the Go module proxy, with kwok's fake nodes (hack/cluster.sh), one
// per suite. Pods are kwok's; e2e/localrun runs the commands of the
// operators' pods on this machine. With E2E_PROVIDER=kind the suites use
// kind clusters instead (hack/e2e-kind.sh creates them).
package cluster

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Cluster is one running local control plane.
type Cluster struct {
	Name       string
	Kubeconfig string
	Config     *rest.Config
	root       string
	// external clusters (kind) are created and deleted by their script.
	external bool
}

// Kind reports whether the suites run on kind clusters (E2E_PROVIDER=kind,
// set by hack/e2e-kind.sh): real nodes, created outside the suite.
func Kind() bool { return os.Getenv("E2E_PROVIDER") == "kind" }

// Up creates (or restarts) the named cluster and waits for its nodes. On
// kind it connects to the kind cluster of that name, which must exist.
func Up(name string) (*Cluster, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return nil, err
	}
	var kubeconfig string
	if Kind() {
		if kubeconfig, err = kindKubeconfig(name); err != nil {
			return nil, err
		}
	} else {
		out, err := script(root, "up", name)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		kubeconfig = lines[len(lines)-1]
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig of cluster %s: %w", name, err)
	}
	cfg.QPS, cfg.Burst = 50, 100
	return &Cluster{Name: name, Kubeconfig: kubeconfig, Config: cfg, root: root, external: Kind()}, nil
}

// Down stops every process of the cluster and deletes its state; a kind
// cluster is left to the script that created it.
func (c *Cluster) Down() error {
	if c.external {
		return nil
	}
	_, err := script(c.root, "down", c.Name)
	return err
}

// kindKubeconfig writes the kubeconfig of kind cluster name to a file.
func kindKubeconfig(name string) (string, error) {
	out, err := run("", "kind", "get", "kubeconfig", "--name", name)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp("", "kind-"+name+"-*.kubeconfig")
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	_, err = f.WriteString(out)
	return f.Name(), err
}

// Root is the repository's root.
func (c *Cluster) Root() string { return c.root }

// Tool is the path of a pinned tool (hack/tools.sh --path).
func (c *Cluster) Tool(name string) (string, error) {
	out, err := run(c.root, filepath.Join(c.root, "hack", "tools.sh"), "--path", name)
	return strings.TrimSpace(out), err
}

// Kubectl runs the pinned kubectl against the cluster.
func (c *Cluster) Kubectl(args ...string) (string, error) {
	kubectl, err := c.Tool("kubectl")
	if err != nil {
		return "", err
	}
	return run(c.root, kubectl, append([]string{"--kubeconfig", c.Kubeconfig}, args...)...)
}

// EmbeddedKubeconfig returns a kubeconfig for cfg with every credential
// inline (no file references), as a registration Secret must carry it.
func EmbeddedKubeconfig(cfg *rest.Config) ([]byte, error) {
	c := rest.CopyConfig(cfg)
	if err := rest.LoadTLSFiles(c); err != nil {
		return nil, err
	}
	kc := clientcmdapi.NewConfig()
	kc.Clusters["c"] = &clientcmdapi.Cluster{Server: c.Host, CertificateAuthorityData: c.CAData}
	kc.AuthInfos["u"] = &clientcmdapi.AuthInfo{ClientCertificateData: c.CertData, ClientKeyData: c.KeyData, Token: c.BearerToken}
	kc.Contexts["c"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	kc.CurrentContext = "c"
	return clientcmd.Write(*kc)
}

func script(root string, args ...string) (string, error) {
	return run(root, filepath.Join(root, "hack", "cluster.sh"), args...)
}

func run(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s %s: %w\n%s%s", filepath.Base(name), strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}
