// Command standins runs development stand-ins for ESO's secret stores and
// mariadb-operator (see package standins) and, optionally, a local MariaDB server behind the
// Database/User/Grant stand-ins and the local pod runner (package localrun)
// that runs the operators' Job and API pods as processes on this machine.
// Never deploy it next to the real controllers.
package main

import (
	"flag"
	"os"
	"strconv"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/standins"
)

func main() {
	portFile := flag.String("mariadb-port-file", "", "start a local MariaDB server, carry Database/User/Grant objects out on it, and write its port to this file")
	runPods := flag.Bool("run-pods", false, "run the operators' Job and API pods as local processes (needs root: each gets its own mount namespace)")
	stores := flag.Bool("secret-stores", true, "mark ESO secret stores Ready (turn off when the real ESO runs)")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	log := ctrl.Log.WithName("standins")
	if err := run(*portFile, *runPods, *stores); err != nil {
		log.Error(err, "stand-ins stopped")
		os.Exit(1)
	}
}

func run(portFile string, runPods, stores bool) error {
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
	all := standins.MariaDBOperator(mgr.GetClient(), db)
	if stores {
		all = standins.All(mgr.GetClient(), db)
	}
	if err := standins.Setup(mgr, all); err != nil {
		return err
	}
	if runPods {
		r := &localrun.Runner{Client: mgr.GetClient(), Profiles: []localrun.Profile{localrun.Placement}, Hosts: localrun.MariaDBHosts(mgr.GetClient())}
		if err := r.SetupWithManager(mgr); err != nil {
			return err
		}
		defer r.Stop()
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
