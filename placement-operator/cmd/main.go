// Command placement-operator runs the Placement controller and its webhooks.
package main

import (
	"flag"
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

func main() {
	opts := manager.BindFlags(flag.CommandLine)
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	if err := manager.Run(ctrl.SetupSignalHandler(), ctrl.GetConfigOrDie(), opts); err != nil {
		ctrl.Log.Error(err, "placement-operator stopped")
		os.Exit(1)
	}
}
