package placement_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/inprocess"
)

// site is one Placement CR with its own namespace, schema and database user
// on the shared MariaDB (a brownfield database: the CR names host and port,
// so the DSN the operator writes points at the loopback server unchanged).
type site struct {
	t      *testing.T
	ctx    context.Context
	ns     string
	name   string
	schema string
	dbUser string
	dbPass string
}

const (
	waitLong = 3 * time.Minute
)

// newSite provisions the inputs and creates the CR: the operator's minimal
// Placement on release, changed by mutate, with the webhook's defaults.
func newSite(t *testing.T, name, release string, mutate func(*placementv1.Placement)) *site {
	t.Helper()
	return newSiteOn(t, name, release, db, mutate)
}

// newSiteOn is newSite with the schema on server. The namespace may exist
// already (a test that puts more inputs into it first).
func newSiteOn(t *testing.T, name, release string, server *localsvc.MariaDB, mutate func(*placementv1.Placement)) *site {
	t.Helper()
	ctx := t.Context()
	s := &site{t: t, ctx: ctx, ns: "cf-" + name, name: "placement",
		schema: "pl_" + strings.ReplaceAll(name, "-", "_"), dbUser: "pl_" + strings.ReplaceAll(name, "-", "_"), dbPass: "db-pw-" + name}
	poll.Must(t, client.IgnoreAlreadyExists(k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.ns}})))
	poll.Must(t, server.CreateSchema(s.schema, s.dbUser, s.dbPass))
	t.Cleanup(func() { _ = server.DropSchema(s.schema, s.dbUser) })
	for _, sec := range []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: "placement-db"}, StringData: map[string]string{"username": s.dbUser, "password": s.dbPass}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: "placement-keystone"}, StringData: map[string]string{"password": serviceUserPass}},
	} {
		poll.Must(t, k8s.Create(ctx, sec))
	}
	p := &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name},
		Spec: placementv1.PlacementSpec{ServiceSpec: shared.ServiceSpec{
			OpenStackRelease: release,
			Image:            shared.ImageSpec{Repository: "registry.example.org/openstack/placement", Tag: release},
			Database: shared.DatabaseSpec{
				Host: "127.0.0.1", Port: int32(server.Port), Database: s.schema,
				SecretRef: shared.SecretKeyRef{Name: "placement-db"},
			},
			Cache:            shared.CacheSpec{Servers: []string{cache.Addr()}},
			KeystoneEndpoint: keystone.URL,
			ServiceUser: shared.ServiceUserSpec{Username: serviceUser, ProjectName: serviceProject,
				SecretRef: shared.SecretKeyRef{Name: "placement-keystone", Key: "password"}},
		}},
	}
	if mutate != nil {
		mutate(p)
	}
	inprocess.Default(p)
	poll.Must(t, k8s.Create(ctx, p))
	return s
}

// placement reads the CR.
func (s *site) placement() *placementv1.Placement {
	var p placementv1.Placement
	poll.Must(s.t, k8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name}, &p))
	return &p
}

// update changes the CR's spec, retrying on conflicts.
func (s *site) update(change func(*placementv1.Placement)) {
	s.t.Helper()
	p := s.placement()
	poll.Update(s.t, k8s, p, 30*time.Second, func() { change(p) })
}

// job waits for the db-sync Job the operator writes.
func (s *site) job() *batchv1.Job {
	s.t.Helper()
	var j batchv1.Job
	poll.Until(s.t, waitLong, func() error {
		return k8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-sync"}, &j)
	})
	return &j
}

// runJob runs the Job's container for real, as its pod would.
func (s *site) runJob(j *batchv1.Job, timeout time.Duration) (int, string, error) {
	s.t.Helper()
	ct, err := localsvc.PrepareJob(s.ctx, k8s, j)
	poll.Must(s.t, err)
	defer ct.Release()
	return ct.Run(ct.Dir, timeout)
}

// syncDatabase runs the db-sync Job and reports its outcome on the Job, as
// the Job controller would.
func (s *site) syncDatabase() {
	s.t.Helper()
	j := s.job()
	code, log, err := s.runJob(j, localsvc.RunTimeout)
	if err != nil || code != 0 {
		s.t.Fatalf("db-sync Job %s failed (code %d, %v):\n%s", j.Name, code, err, log)
	}
	poll.Must(s.t, testenv.JobFinished(s.ctx, k8s, client.ObjectKeyFromObject(j), true))
}

// deployment waits for the API Deployment, optionally one whose pod
// template differs from the one named by notHash.
func (s *site) deployment(notConfigMap string) *appsv1.Deployment {
	s.t.Helper()
	var d appsv1.Deployment
	poll.Until(s.t, waitLong, func() error {
		if err := k8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name}, &d); err != nil {
			return err
		}
		if cm := configMapOf(&d); cm == notConfigMap {
			return fmt.Errorf("deployment still mounts ConfigMap %s", cm)
		}
		return nil
	})
	return &d
}

// api is a placement-api started from a Deployment's container.
type api struct {
	URL       string
	Container *localsvc.Prepared
	Proc      *localsvc.Proc
}

// startAPI runs the Deployment's container under uwsgi on a loopback port
// and waits until every worker has loaded the app.
func (s *site) startAPI(d *appsv1.Deployment) *api {
	s.t.Helper()
	ct, err := localsvc.PrepareDeployment(s.ctx, k8s, d, "placement-api")
	poll.Must(s.t, err)
	port, err := localsvc.FreePort()
	poll.Must(s.t, err)
	workers, err := localsvc.Processes(ct.Argv)
	poll.Must(s.t, err)
	argv, err := localsvc.PlacementAPI.Map(ct.Argv, port)
	poll.Must(s.t, err)
	ct.Argv = argv
	p, err := ct.Start()
	poll.Must(s.t, err)
	a := &api{URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/", Container: ct, Proc: p}
	s.t.Cleanup(func() { a.stop() })
	if err := p.WaitLog(localsvc.AppReadyLine, workers, 2*time.Minute); err != nil {
		s.t.Fatal(err)
	}
	return a
}

func (a *api) stop() {
	_ = a.Proc.Stop(5 * time.Second)
	a.Container.Release()
}

// ready points the operator's probe at a, reports the Deployment rolled
// out and waits for Ready=True.
func (s *site) ready(a *api) {
	s.t.Helper()
	probes.Set(s.ns, s.name, a.URL)
	s.t.Cleanup(func() { probes.Set(s.ns, s.name, "") })
	poll.Must(s.t, testenv.DeploymentAvailable(s.ctx, k8s, client.ObjectKey{Namespace: s.ns, Name: s.name}))
	s.waitCondition(placementv1.ConditionPlacementAPIReady, metav1.ConditionTrue)
	s.waitCondition(placementv1.ConditionReady, metav1.ConditionTrue)
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
	var found *metav1.Condition
	poll.Until(s.t, waitLong, func() error {
		p := s.placement()
		c := meta.FindStatusCondition(p.Status.Conditions, typ)
		if c == nil || c.Status != status || c.ObservedGeneration != p.Generation {
			return fmt.Errorf("%s = %v, want %s (generation %d)", typ, c, status, p.Generation)
		}
		found = c
		return nil
	})
	return found
}

// configMapOf names the config ConfigMap a Deployment mounts.
func configMapOf(d *appsv1.Deployment) string {
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == "config" && v.ConfigMap != nil {
			return v.ConfigMap.Name
		}
	}
	return ""
}
