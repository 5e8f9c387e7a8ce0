package bench

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Operator is what the harness needs to know of one operator under test.
// Everything else (readiness, counting, latency) follows the conventions every
// operator of the suite shares: a Ready condition stamped with
// observedGeneration, <prefix>_reconcile_duration_seconds per sub-reconciler.
type Operator struct {
	// Name selects the operator on the command line.
	Name string
	// GVK is the kind of the CR; Resource its plural, as the API server's
	// metrics label it.
	GVK      schema.GroupVersionKind
	Resource string
	// Controller is the controller-runtime name of the CR's controller.
	Controller string
	// MetricsPrefix prefixes the operator's own metrics.
	MetricsPrefix string
	// CRDPaths are the operator's CRD files or directories, relative to the
	// repository root.
	CRDPaths []string
	// NewScheme knows the CR and every kind the harness reads or writes.
	NewScheme func() *runtime.Scheme
	// NewManager builds the operator's manager in this process.
	NewManager func(ctx context.Context, cfg *rest.Config, o ManagerOptions) (ctrl.Manager, error)
	// Prepare creates the cluster-wide inputs, once per control plane.
	Prepare func(ctx context.Context, c client.Client) error
	// Inputs creates what one CR needs in its namespace.
	Inputs func(ctx context.Context, c client.Client, namespace string) error
	// InputsReady reports whether the stand-ins have marked the inputs of a
	// namespace Ready, so the clock of convergence starts on settled inputs.
	InputsReady func(ctx context.Context, c client.Client, namespace string) (bool, error)
	// NewCR returns the CR as a user writes it, defaults applied.
	NewCR func(namespace, name string) client.Object
	// Rotate changes one credential the CR reads; round makes each value new.
	Rotate func(ctx context.Context, c client.Client, namespace, name string, round int) error
	// Deployment is the key of the CR's API Deployment.
	Deployment func(namespace, name string) client.ObjectKey
	// Kinds are checked for resourceVersion changes over unchanged inputs:
	// the CR, its children and its inputs.
	Kinds []schema.GroupVersionKind
}

// ManagerOptions are what the harness sets on the operator's manager.
type ManagerOptions struct {
	// SyncPeriod is the cache's full resync interval.
	SyncPeriod time.Duration
	// ProbeURL is the stand-in every API health probe hits.
	ProbeURL string
}

// Operators are the profiles the harness knows, by name.
var Operators = map[string]*Operator{}
