// Command standins runs development stand-ins for ESO and mariadb-operator
// (see package standins): they mark secret stores, MariaDBs and their
// Database/User/Grant objects Ready so an operator can be run locally on a
// cluster without those controllers. Never deploy it next to the real ones.
package main

import (
	"flag"
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/standins"
)

func main() {
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	log := ctrl.Log.WithName("standins")

	scheme, err := standins.NewScheme()
	if err != nil {
		log.Error(err, "building scheme")
		os.Exit(1)
	}
	// No metrics or health endpoints: the stand-ins run next to an operator
	// on the developer's machine and must not take its ports.
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		log.Error(err, "creating manager")
		os.Exit(1)
	}
	if err := standins.SetupWithManager(mgr, nil); err != nil {
		log.Error(err, "setting up stand-ins")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "stand-ins stopped")
		os.Exit(1)
	}
}
