package controller_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

var must = testenv.Must

// Names of the brownfield inputs bao creates.
const (
	approleSecret = "bao-approle"
	caSecret      = "bao-ca"
	// storePolicy grants the five capabilities a brownfield AppRole needs.
	storePolicy = `path "barbican/data/*" { capabilities = ["create", "read", "update", "delete", "list"] }`
)

// newBarbican is a minimal valid Barbican on a managed MariaDB with the
// fields the defaulting webhook would fill.
func newBarbican(ns, name string) *barbicanv1.Barbican {
	b := fixture.Bare(ns, name)
	testenv.WebhookFilled(&b.Spec.ServiceSpec, "barbican")
	return b
}

// inputs creates the ESO store, the credential Secrets and a Ready MariaDB.
func inputs(t *testing.T, ns string) {
	t.Helper()
	suite.Inputs(t, ns, map[string]map[string]string{
		"barbican-db":           {"username": "barbican", "password": "db-secret"},
		"barbican-service-user": {"password": "ks-secret"},
	})
}

// withParent starts a parallel test in a fresh namespace that holds the
// Barbican "barbican" and its inputs, for the test's stores to attach to.
func withParent(t *testing.T) (context.Context, string) {
	t.Helper()
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	must(t, k8s.Create(ctx, newBarbican(ns, "barbican")))
	return ctx, ns
}

// bao starts a real server set up as a brownfield one: a KV v2 mount
// barbican and an AppRole barbican whose policy holds the five
// capabilities; its pair goes to the Secret bao-approle and its CA to bao-ca.
func bao(t *testing.T, ns string) *openbao.Server {
	t.Helper()
	return baoWith(t, ns, approleSecret, caSecret)
}

// baoWith is bao with its pair in the Secret approle and its CA in ca.
func baoWith(t *testing.T, ns, approle, ca string) *openbao.Server {
	t.Helper()
	srv := openbao.Start(t)
	ctx := context.Background()
	must(t, srv.EnableKV2(ctx, barbicanv1.DefaultKVMountpoint))
	must(t, srv.WritePolicy(ctx, "barbican-store", storePolicy))
	roleID, secretID, err := srv.CreateAppRole(ctx, "barbican", openbao.AppRoleOptions{Policies: []string{"barbican-store"}})
	must(t, err)
	suite.Secret(t, ns, approle, map[string]string{barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID})
	suite.Secret(t, ns, ca, map[string]string{barbicanv1.KeyCACert: string(srv.CAPEM)})
	return srv
}

// brownfield attaches the default brownfield store "vault" on srv to barbican.
func brownfield(t *testing.T, ns, barbican string, srv *openbao.Server) *barbicanv1.BarbicanSecretStore {
	t.Helper()
	st := fixture.BrownfieldStore(ns, "vault", barbican, srv.URL, approleSecret, caSecret, true)
	must(t, k8s.Create(context.Background(), st))
	return st
}

// toReady drives a fresh Barbican with a brownfield store on a real server
// to Ready=True through the simulators.
func toReady(t *testing.T, ns string, b *barbicanv1.Barbican) (*barbicanv1.Barbican, *openbao.Server) {
	t.Helper()
	srv := install(t, ns, b)
	return waitCondition(t, ns, b.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady"), srv
}

// install creates b with a brownfield store on a real server and drives
// the simulators through db-sync and the rollout, not waiting for Ready.
func install(t *testing.T, ns string, b *barbicanv1.Barbican) *openbao.Server {
	t.Helper()
	srv := bao(t, ns)
	api.Set(ns, b.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	brownfield(t, ns, b.Name, srv)
	must(t, k8s.Create(context.Background(), b))
	suite.ProvisionDatabase(t, ns, b.Name)
	suite.FinishJob(t, ns, b.Name+"-db-sync", true)
	suite.RollOut(t, ns, b.Name)
	return srv
}

// barbicans and stores are the suite's typed accessors.
var (
	barbicans = testenv.Kind[barbicanv1.Barbican, *barbicanv1.Barbican]{Suite: suite}
	stores    = testenv.Kind[barbicanv1.BarbicanSecretStore, *barbicanv1.BarbicanSecretStore]{Suite: suite}
)

func get(t *testing.T, ns, name string) *barbicanv1.Barbican {
	t.Helper()
	return barbicans.Get(t, ns, name)
}

// waitCondition waits until the Barbican's condition has the status and reason.
func waitCondition(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *barbicanv1.Barbican {
	t.Helper()
	return barbicans.Wait(t, ns, name, condType, status, reason)
}

// waitStore waits until the store's condition has the status and reason.
func waitStore(t *testing.T, ns, name, condType string, status metav1.ConditionStatus, reason string) *barbicanv1.BarbicanSecretStore {
	t.Helper()
	return stores.Wait(t, ns, name, condType, status, reason)
}

func deployment(t *testing.T, ns, name string) *appsv1.Deployment {
	t.Helper()
	return suite.Deployment(t, ns, name)
}

// update applies mutate to the live Barbican and writes it back.
func update(t *testing.T, ns, name string, mutate func(*barbicanv1.Barbican)) {
	t.Helper()
	barbicans.Update(t, ns, name, mutate)
}

// updateStore applies mutate to the live store and writes it back.
func updateStore(t *testing.T, ns, name string, mutate func(*barbicanv1.BarbicanSecretStore)) {
	t.Helper()
	stores.Update(t, ns, name, mutate)
}

// configOf is barbican.conf of the config Secret the Deployment mounts.
func configOf(t *testing.T, d *appsv1.Deployment) (name, conf string) {
	t.Helper()
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == render.ConfigVolume && v.Secret != nil {
			name = v.Secret.SecretName
		}
	}
	var s corev1.Secret
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: d.Namespace, Name: name}, &s))
	return name, string(s.Data[render.KeyConf])
}

// condition is the Barbican's condition condType, nil when unset.
func condition(b *barbicanv1.Barbican, condType string) *metav1.Condition {
	return testenv.Condition(b, condType)
}

// poke writes an annotation on the Barbican and waits for the pass that follows.
func poke(t *testing.T, ns, name string) {
	t.Helper()
	suite.Poke(t, &barbicanv1.Barbican{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// storeCondition is the store's condition condType, nil when unset.
func storeCondition(s *barbicanv1.BarbicanSecretStore, condType string) *metav1.Condition {
	return testenv.Condition(s, condType)
}

// readSecret is the data of the Secret ns/name as strings.
func readSecret(t *testing.T, ns, name string) map[string]string {
	t.Helper()
	var s corev1.Secret
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &s))
	out := map[string]string{}
	for k, v := range s.Data {
		out[k] = string(v)
	}
	return out
}

// inCache waits until the manager's cache holds obj as the API server has it.
func inCache(t *testing.T, obj client.Object) { t.Helper(); suite.InCache(t, reconciler.Client, obj) }

func keyOf(ns, name string) client.ObjectKey { return client.ObjectKey{Namespace: ns, Name: name} }

// mariadbObjects are the MariaDB CRs of the Barbican name.
func mariadbObjects(ns, name string) []client.Object {
	m := metav1.ObjectMeta{Namespace: ns, Name: name}
	return []client.Object{&mariadbv1alpha1.Database{ObjectMeta: m}, &mariadbv1alpha1.User{ObjectMeta: m}, &mariadbv1alpha1.Grant{ObjectMeta: m}}
}
