package placement_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placement "github.com/c5c3/openstack-operators/placement-operator"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// site is one Placement CR with its own namespace, schema and database
// user (harness.Inputs).
type site struct {
	harness.Inputs
	t    *testing.T
	ctx  context.Context
	ns   string
	name string
}

// newSite provisions the inputs and creates the CR: the operator's minimal
// Placement on release, changed by mutate, with the webhook's defaults.
func newSite(t *testing.T, name, release string, mutate func(*placementv1.Placement)) *site {
	t.Helper()
	return newSiteOn(t, name, release, env.DB, mutate)
}

// newSiteOn is newSite with the schema on server. The namespace may exist
// already (a test that puts more inputs into it first).
func newSiteOn(t *testing.T, name, release string, server *localsvc.MariaDB, mutate func(*placementv1.Placement)) *site {
	t.Helper()
	in := harness.NewInputs("placement", "pl", name, server)
	s := &site{Inputs: in, t: t, ctx: t.Context(), ns: in.Namespace, name: "placement"}
	p := &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name},
		Spec:       placementv1.PlacementSpec{ServiceSpec: env.Provision(t, in, release)},
	}
	if mutate != nil {
		mutate(p)
	}
	placement.Default(p)
	poll.Must(t, env.K8s.Create(s.ctx, p))
	return s
}

// placement reads the CR.
func (s *site) placement() *placementv1.Placement {
	var p placementv1.Placement
	poll.Must(s.t, env.K8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name}, &p))
	return &p
}

// update changes the CR's spec, retrying on conflicts.
func (s *site) update(change func(*placementv1.Placement)) {
	s.t.Helper()
	p := s.placement()
	poll.Update(s.t, env.K8s, p, 30*time.Second, func() { change(p) })
}

// job waits for the db-sync Job the operator writes.
func (s *site) job() *batchv1.Job {
	s.t.Helper()
	return env.Job(s.t, client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-sync"})
}

// runJob runs the Job's container for real, as its pod would.
func (s *site) runJob(j *batchv1.Job, timeout time.Duration) (int, string, error) {
	s.t.Helper()
	return env.RunJob(s.t, j, nil, timeout)
}

// syncDatabase runs the db-sync Job and reports its outcome on the Job, as
// the Job controller would.
func (s *site) syncDatabase() {
	s.t.Helper()
	env.CompleteJob(s.t, s.job(), nil)
}

// deployment waits for the API Deployment, optionally one whose pod
// template mounts a ConfigMap other than notConfigMap.
func (s *site) deployment(notConfigMap string) *appsv1.Deployment {
	s.t.Helper()
	return env.Deployment(s.t, client.ObjectKey{Namespace: s.ns, Name: s.name}, notConfigMap)
}

// api is a placement-api started from a Deployment's container.
type api = harness.API

// startAPI runs the Deployment's container under uwsgi on a loopback port
// and waits until every worker has loaded the app.
func (s *site) startAPI(d *appsv1.Deployment) *api {
	s.t.Helper()
	root, err := testenv.RepoRoot()
	poll.Must(s.t, err)
	return env.StartAPI(s.t, d, "placement-api", harness.Launch{
		Map:     localsvc.PlacementAPI.MapWith,
		Provide: localsvc.PlacementImageTrees(root),
		Ready:   harness.UWSGIReady(""),
	})
}

// ready points the operator's probe at a, reports the Deployment rolled
// out and waits for Ready=True.
func (s *site) ready(a *api) {
	s.t.Helper()
	env.Ready(s.t, s.placement(), client.ObjectKey{Namespace: s.ns, Name: s.name}, a)
	s.waitCondition(placementv1.ConditionPlacementAPIReady, metav1.ConditionTrue)
}

// upToReady walks a new CR to Ready with the real db-sync and API.
func (s *site) upToReady() *api {
	s.t.Helper()
	s.syncDatabase()
	a := s.startAPI(s.deployment(""))
	s.ready(a)
	return a
}

func (s *site) waitCondition(typ string, status metav1.ConditionStatus) *metav1.Condition {
	s.t.Helper()
	return env.WaitCondition(s.t, s.placement(), typ, status)
}

// configMapOf names the config ConfigMap a Deployment mounts.
var configMapOf = harness.ConfigMapOf

// waitLong bounds a wait on the operator.
const waitLong = harness.WaitLong
