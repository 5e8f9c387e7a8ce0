package standins

import (
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Workloads returns the stand-ins for the Job and Deployment controllers.
// They are kept out of All: "make run" has a real kube-controller-manager,
// and two writers of the same status would fight. Only a control plane
// without one (envtest, the benchmark harness) runs them.
func Workloads(c client.Client) []StandIn {
	return []StandIn{NewJobCompleter(c), NewDeploymentRollout(c)}
}

// SetupWorkloadsWithManager registers the Job and Deployment stand-ins.
func SetupWorkloadsWithManager(mgr ctrl.Manager) error {
	for _, r := range Workloads(mgr.GetClient()) {
		if err := r.SetupWithManager(mgr); err != nil {
			return fmt.Errorf("setting up workload stand-in: %w", err)
		}
	}
	return nil
}
