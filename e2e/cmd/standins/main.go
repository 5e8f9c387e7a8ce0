// Command standins runs development stand-ins for ESO's secret stores and
// mariadb-operator (see package standins) and, optionally, a local MariaDB server behind the
// Database/User/Grant stand-ins and the local pod runner (package localrun)
// that runs the operators' Job and API pods as processes on this machine,
// a local S3 server for Glance's stores and a local OpenBao-compatible
// server for Barbican's.
// Never deploy it next to the real controllers.
package main

import (
	"context"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/standins"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func main() {
	portFile := flag.String("mariadb-port-file", "", "start a local MariaDB server, carry Database/User/Grant objects out on it, and write its port to this file")
	runPods := flag.Bool("run-pods", false, "run the operators' Job and API pods as local processes (needs root: each gets its own mount namespace)")
	barbicanRoot := flag.String("barbican-root", "", "with --run-pods, run Barbican's pods too, inside this root filesystem holding barbican 23 (hack/rootfs.sh sid); empty: they are not run")
	stores := flag.Bool("secret-stores", true, "mark ESO secret stores Ready (turn off when the real ESO runs)")
	var s3 s3Flags
	flag.IntVar(&s3.port, "s3-port", 0, "start a local S3 server (versitygw) on 127.0.0.1 at this port; 0: none")
	flag.StringVar(&s3.access, "s3-access-key", "", "the S3 server's access key")
	flag.StringVar(&s3.secret, "s3-secret-key", "", "the S3 server's secret key")
	flag.StringVar(&s3.buckets, "s3-buckets", "", "comma-separated buckets to create on the S3 server")
	flag.StringVar(&s3.hosts, "local-hosts", "", "comma-separated names that resolve to 127.0.0.1 inside every pod run here (e.g. the S3 Service's)")
	var vault vaultFlags
	flag.StringVar(&vault.dir, "vault-dir", "", "start a local OpenBao-compatible server (Vault) with its files here, set up as a brownfield Barbican store, its URL written to <dir>/url; empty: none")
	flag.StringVar(&vault.namespace, "vault-namespace", "", "namespace that receives the Secrets bao-approle (its AppRole pair) and bao-ca (its CA)")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	log := ctrl.Log.WithName("standins")
	if err := run(*portFile, *runPods, *barbicanRoot, *stores, s3, vault); err != nil {
		log.Error(err, "stand-ins stopped")
		os.Exit(1)
	}
}

// s3Flags describe the local S3 server.
type s3Flags struct {
	port                           int
	access, secret, buckets, hosts string
}

func split(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ',' })
}

func run(portFile string, runPods bool, barbicanRoot string, stores bool, s3 s3Flags, vault vaultFlags) error {
	scheme, err := standins.NewScheme()
	if err != nil {
		return err
	}
	// No metrics or health endpoints: the stand-ins run next to an operator
	// on the developer's machine and must not take its ports.
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return err
	}
	var db standins.SQL
	if portFile != "" {
		m, err := localsvc.StartMariaDB()
		if err != nil {
			return err
		}
		defer func() { _ = m.Stop() }()
		if err := os.WriteFile(portFile, []byte(strconv.Itoa(m.Port)+"\n"), 0o600); err != nil {
			return err
		}
		db = m
	}
	if s3.port != 0 {
		srv, err := localsvc.StartS3With(localsvc.S3Options{Port: s3.port, AccessKey: s3.access, SecretKey: s3.secret})
		if err != nil {
			return err
		}
		defer func() { _ = srv.Stop() }()
		for _, b := range split(s3.buckets) {
			if err := srv.CreateBucket(context.Background(), b); err != nil {
				return err
			}
		}
	}
	if vault.dir != "" {
		// The manager's client reads from its cache, which does not run
		// yet: write the Secrets directly.
		direct, err := client.New(mgr.GetConfig(), client.Options{Scheme: scheme})
		if err != nil {
			return err
		}
		srv, err := startVault(context.Background(), direct, vault)
		if err != nil {
			return err
		}
		defer srv.Stop()
	}
	all := standins.MariaDBOperator(mgr.GetClient(), db)
	if stores {
		all = standins.All(mgr.GetClient(), db)
	}
	if err := standins.Setup(mgr, all); err != nil {
		return err
	}
	if runPods {
		root, err := testenv.RepoRoot()
		if err != nil {
			return err
		}
		mariadbs := localrun.MariaDBHosts(mgr.GetClient())
		hosts := func(ctx context.Context, ns string) ([]string, error) {
			h, err := mariadbs(ctx, ns)
			return slices.Concat(h, split(s3.hosts)), err
		}
		profiles := []localrun.Profile{localrun.Placement(root), localrun.Glance(root)}
		if barbicanRoot != "" {
			profiles = append(profiles, localrun.Barbican(barbicanRoot))
		}
		r := &localrun.Runner{Client: mgr.GetClient(), Profiles: profiles, Hosts: hosts}
		if err := r.SetupWithManager(mgr); err != nil {
			return err
		}
		defer r.Stop()
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
