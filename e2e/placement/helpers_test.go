package placement_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

const waitLong = 3 * time.Minute

// site is one Placement on its suite.Site.
type site struct {
	t   *testing.T
	ctx context.Context
	// c holds the inputs and receives the children: the management
	// cluster, or a target cluster. The Placement is always on env.K8s.
	c      client.Client
	ns     string
	name   string
	schema string
	dbUser string
	// in is the site's inputs (nil for a bare namespace).
	in *suite.Site
}

// newSite creates the namespace, the MariaDB CR and both credential
// Secrets on c, and a Placement as a user writes it (the mutating webhook
// fills the defaults), changed by mutate.
func newSite(t *testing.T, c client.Client, release string, mutate func(*placementv1.Placement)) *site {
	t.Helper()
	in := suite.NewSite(t, env.K8s, c, "placement", "p")
	s := &site{t: t, ctx: in.Ctx, c: c, ns: in.NS, name: in.Name, schema: in.Schema, dbUser: in.DBUser, in: in}
	if cluster.Kind() {
		kindMariaDBService(t, c, s.ns)
	}
	p := newPlacement(s, release)
	if mutate != nil {
		mutate(p)
	}
	poll.Must(t, env.K8s.Create(s.ctx, p))
	return s
}

// newPlacement is the sample Placement without the fields the webhook
// defaults, its API on one uwsgi worker (suite.OneWorker). On kind the image runs: E2E_PLACEMENT_IMAGE_REPOSITORY names
// one with a tag per release.
func newPlacement(s *site, release string) *placementv1.Placement {
	in := &suite.Site{NS: s.ns, Schema: s.schema, Service: "placement"}
	return &placementv1.Placement{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name},
		Spec: placementv1.PlacementSpec{ServiceSpec: in.Spec(release, os.Getenv("E2E_PLACEMENT_IMAGE_REPOSITORY"), env.DB.Port),
			APIServer: &placementv1.APIServerSpec{UWSGI: suite.OneWorker()}},
	}
}

func (s *site) placement() *placementv1.Placement {
	var p placementv1.Placement
	poll.Must(s.t, env.K8s.Get(s.ctx, client.ObjectKey{Namespace: s.ns, Name: s.name}, &p))
	return &p
}

// update changes the Placement, retrying on conflicts.
func (s *site) update(change func(*placementv1.Placement)) {
	s.t.Helper()
	p := s.placement()
	poll.Update(s.t, env.K8s, p, time.Minute, func() { change(p) })
}

// condition waits until the condition has status (and reason, if given)
// for the current generation.
func (s *site) condition(typ string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	s.t.Helper()
	var got *metav1.Condition
	poll.Until(s.t, waitLong, func() error {
		p := s.placement()
		c := meta.FindStatusCondition(p.Status.Conditions, typ)
		if c == nil || c.Status != status || (reason != "" && c.Reason != reason) || c.ObservedGeneration != p.Generation {
			return fmt.Errorf("want %s=%s %s at generation %d; have %s", typ, status, reason, p.Generation, suite.Conditions(p.Status.Conditions))
		}
		got = c
		return nil
	})
	return got
}

func (s *site) ready() {
	s.t.Helper()
	s.condition(placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
}

// events counts the Placement's events by reason.
func (s *site) events() map[string]int {
	s.t.Helper()
	return suite.Events(s.t, env.K8s, s.ns, "Placement", s.name)
}

// waitEvent waits for an event of the Placement with reason.
func (s *site) waitEvent(reason string) {
	s.t.Helper()
	suite.WaitEvent(s.t, env.K8s, s.ns, "Placement", s.name, reason, waitLong)
}

// exists reports whether obj exists on the site's cluster.
func (s *site) exists(obj client.Object) bool {
	s.t.Helper()
	err := s.c.Get(s.ctx, client.ObjectKeyFromObject(obj), obj)
	if err != nil && client.IgnoreNotFound(err) != nil {
		s.t.Fatal(err)
	}
	return err == nil
}

// sqlCount runs a COUNT query on the local MariaDB.
func sqlCount(t *testing.T, query string) string {
	t.Helper()
	out, err := env.DB.Query(query)
	poll.Must(t, err)
	return out
}

func (s *site) schemaExists() bool {
	return sqlCount(s.t, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '"+s.schema+"'") == "1"
}

func (s *site) userExists() bool {
	return sqlCount(s.t, "SELECT COUNT(*) FROM mysql.user WHERE user = '"+s.dbUser+"'") != "0"
}

// kindMariaDBService gives the MariaDB CR the Service mariadb-operator
// would, pointing at the suite's server on the host (kind only; with kwok
// the runner resolves the name to loopback inside each pod).
func kindMariaDBService(t *testing.T, c client.Client, ns string) {
	t.Helper()
	port := int32(env.DB.Port)
	poll.Must(t, c.Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mariadb"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "mysql", Port: port}}}}))
	poll.Must(t, c.Create(t.Context(), &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: "mariadb-host", Labels: map[string]string{discoveryv1.LabelServiceName: "mariadb"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{suite.HostIP}}},
		Ports:       []discoveryv1.EndpointPort{{Name: ptr.To("mysql"), Port: &port}},
	}))
}
