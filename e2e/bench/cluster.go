package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Cluster is one kube-apiserver + etcd (envtest with the binaries
// hack/tools.sh builds), loaded with the operator's and the third-party CRDs
// like testsupport/testenv, with room for more Services.
type Cluster struct {
	env *envtest.Environment
	// Config is the admin config: system:masters, no client-side rate limit.
	Config *rest.Config
	// Kubeconfig is Config written to a file, for the operator's process.
	Kubeconfig string
}

// StartCluster starts a fresh control plane; dir receives the kubeconfig.
func StartCluster(op *Operator, dir string) (*Cluster, error) {
	root, err := testenv.RepoRoot()
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(op.CRDPaths))
	for _, p := range op.CRDPaths {
		paths = append(paths, filepath.Join(root, p))
	}
	assets, err := testenv.Assets()
	if err != nil {
		return nil, err
	}
	third, err := testenv.ThirdPartyCRDs(true)
	if err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDInstallOptions:     envtest.CRDInstallOptions{Paths: append(paths, third...), ErrorIfPathMissing: true},
	}
	// envtest's /24 holds 254 Services; every CR has one.
	env.ControlPlane.GetAPIServer().Configure().Set("service-cluster-ip-range", "10.96.0.0/16")
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting envtest: %w", err)
	}
	cfg.QPS, cfg.Burst = -1, 0
	kc := filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(cfg, kc); err != nil {
		_ = env.Stop()
		return nil, err
	}
	return &Cluster{env: env, Config: cfg, Kubeconfig: kc}, nil
}

// Stop stops the control plane.
func (c *Cluster) Stop() error { return c.env.Stop() }

func writeKubeconfig(cfg *rest.Config, path string) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["bench"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["admin"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData, Token: cfg.BearerToken}
	kc.Contexts["bench"] = &clientcmdapi.Context{Cluster: "bench", AuthInfo: "admin"}
	kc.CurrentContext = "bench"
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	return nil
}

// ControlPlaneCPU is the CPU time, in seconds, kube-apiserver and etcd
// (children of this process) have used so far.
func ControlPlaneCPU() (float64, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	self := os.Getpid()
	var total float64
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readProcStat(pid)
		if err != nil || st.ppid != self {
			continue
		}
		if st.comm == "kube-apiserver" || st.comm == "etcd" {
			total += st.cpuSeconds
		}
	}
	return total, nil
}
