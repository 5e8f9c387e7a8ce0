package suite

import (
	"context"
	"fmt"
	"os"

	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/standins"
)

// Machine is what runs beside a cluster on this machine: the
// mariadb-operator stand-ins (Database/User/Grant carried out on the real
// MariaDB) and the pod runner with the operators' profiles.
type Machine struct {
	Runner *localrun.Runner
	cancel context.CancelFunc
	done   chan struct{}
}

// StartMachine starts the stand-ins and, with kwok, the pod runner against
// cfg; hosts (optional) names more servers the pods reach (Options.Hosts).
func StartMachine(ctx context.Context, cfg *rest.Config, db *localsvc.MariaDB, profiles []localrun.Profile,
	hosts func(context.Context, client.Reader, string) ([]string, error)) (*Machine, error) {
	scheme, err := standins.NewScheme()
	if err != nil {
		return nil, err
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		// One machine per cluster: the target-cluster scenario starts a second.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		return nil, err
	}
	// ESO itself runs (startESO): only mariadb-operator is played.
	if err := standins.Setup(mgr, standins.MariaDBOperator(mgr.GetClient(), db)); err != nil {
		return nil, err
	}
	// On kind a real kubelet runs the pods.
	r := &localrun.Runner{Client: mgr.GetClient(), Profiles: profiles, Hosts: localrun.MariaDBHosts(mgr.GetClient())}
	if hosts != nil {
		mariadb := r.Hosts
		r.Hosts = func(ctx context.Context, ns string) ([]string, error) {
			names, err := mariadb(ctx, ns)
			if err != nil {
				return nil, err
			}
			more, err := hosts(ctx, mgr.GetClient(), ns)
			return append(names, more...), err
		}
	}
	if !cluster.Kind() {
		if err := r.SetupWithManager(mgr); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	m := &Machine{Runner: r, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(m.done)
		if err := mgr.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "e2e machine:", err)
		}
	}()
	return m, nil
}

// Stop stops the stand-ins and every process the runner started.
func (m *Machine) Stop() {
	m.cancel()
	<-m.done
	m.Runner.Stop()
}
