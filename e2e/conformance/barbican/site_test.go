package barbican_test

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/managedbao"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// The managed instance of every site, the port its Service serves, and
// the loopback address its server listens on: one of this suite's own, so
// that the e2e suite's server can listen on the same port beside it.
const (
	instance     = "bao"
	instancePort = "8200"
	instanceIP   = "127.0.0.3"
	storeName    = "vault"
)

// site is one Barbican CR with its own namespace, schema and database user
// (harness.Inputs), and the default store "vault" on the managed OpenBao
// instance "bao" of the same namespace: a real server set up as the
// OpenBao operator's self-init leaves it (KV v2 mount, AppRole, kubernetes
// auth against this kube-apiserver), listening on 127.0.0.3:8200 with a
// certificate for its Service name. The operator dials that name through
// its --resolve table, the API process through its hosts file.
type site struct {
	harness.Inputs
	t     *testing.T
	ns    string
	name  string
	host  string // the instance's Service name
	vault *openbao.Server
}

// newSite brings up the instance (secret IDs living secretIDTTL; 0: no
// expiry) and creates the store and the CR: the operator's minimal Barbican
// on release, changed by mutate, with the webhook's defaults.
func newSite(t *testing.T, name, release string, secretIDTTL time.Duration, mutate func(*barbicanv1.Barbican)) *site {
	t.Helper()
	ctx := t.Context()
	in := harness.NewInputs("barbican", "bb", name, env.DB)
	spec := env.Provision(t, in, release)
	s := &site{Inputs: in, t: t, ns: in.Namespace, name: "barbican", host: managedbao.Host(in.Namespace, instance)}
	s.managedInstance(secretIDTTL)
	poll.Must(t, env.K8s.Create(ctx, managedbao.Store(s.ns, storeName, s.name, instance)))
	b := &barbicanv1.Barbican{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: s.name},
		Spec:       barbicanv1.BarbicanSpec{ServiceSpec: spec},
	}
	if mutate != nil {
		mutate(b)
	}
	barbican.Default(b)
	poll.Must(t, env.K8s.Create(ctx, b))
	return s
}

// managedInstance brings up the instance (managedbao.Start) on
// instanceIP at its Service's port, and maps its Service name there in the
// operator's --resolve table.
func (s *site) managedInstance(secretIDTTL time.Duration) {
	s.vault = managedbao.Start(s.t, env.K8s, env.Config, s.ns, instance, instanceIP+":"+instancePort, secretIDTTL)
	env.Resolve.Map(s.host+":"+instancePort, instanceIP+":"+instancePort)
	s.t.Cleanup(func() { env.Resolve.Map(s.host+":"+instancePort, "") })
}

func (s *site) key() client.ObjectKey { return client.ObjectKey{Namespace: s.ns, Name: s.name} }

// barbican reads the CR.
func (s *site) barbican() *barbicanv1.Barbican {
	var b barbicanv1.Barbican
	poll.Must(s.t, env.K8s.Get(s.t.Context(), s.key(), &b))
	return &b
}

// storeCondition waits until the store's condition typ is True for its
// current generation.
func (s *site) storeCondition(typ string) *barbicanv1.BarbicanSecretStore {
	s.t.Helper()
	var st barbicanv1.BarbicanSecretStore
	poll.Until(s.t, harness.WaitLong, func() error {
		if err := env.K8s.Get(s.t.Context(), client.ObjectKey{Namespace: s.ns, Name: storeName}, &st); err != nil {
			return err
		}
		c := meta.FindStatusCondition(st.Status.Conditions, typ)
		if c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration != st.Generation {
			return fmt.Errorf("store %s not %s: %s; Barbican: %s", storeName, typ,
				suite.Conditions(st.Status.Conditions), suite.Conditions(s.barbican().Status.Conditions))
		}
		return nil
	})
	return &st
}

// startAPI runs barbican-api from the Deployment's container under uwsgi
// and waits until /healthcheck answers. notDigest, when set, waits for a
// Deployment whose secret-ID digest annotation differs from it.
func (s *site) startAPI(notDigest string) *harness.API {
	s.t.Helper()
	d := env.Deployment(s.t, s.key(), "")
	if notDigest != "" {
		poll.Until(s.t, harness.WaitLong, func() error {
			if err := env.K8s.Get(s.t.Context(), s.key(), d); err != nil {
				return err
			}
			if got := secretIDDigest(d.Spec.Template.Annotations); got == notDigest {
				return fmt.Errorf("the Deployment still carries the secret ID digest %s", got)
			}
			return nil
		})
	}
	return env.StartAPI(s.t, d, "barbican-api", harness.Launch{
		Map: localsvc.BarbicanAPIUWSGI.MapWith, Hosts: []string{localsvc.HostAt(s.host, instanceIP)},
		Ready: harness.UWSGIReady("healthcheck"),
	})
}

// upToReady walks a new CR to Ready with the real db-sync and API, once
// the store holds a minted secret ID; the store then turns Ready too (its
// config reached the Deployment).
func (s *site) upToReady() *harness.API {
	s.t.Helper()
	s.storeCondition(barbicanv1.ConditionCredentialsReady)
	env.SyncDatabase(s.t, s.barbican(), client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-sync"}, nil)
	a := s.startAPI("")
	env.Ready(s.t, s.barbican(), s.key(), a)
	s.storeCondition(conditions.TypeReady)
	return a
}

// secretIDDigest is the pod template's digest of the store's secret ID.
func secretIDDigest(annotations map[string]string) string {
	return annotations[barbican.StoreCredsHash]
}
