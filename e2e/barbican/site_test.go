package barbican_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/perf/probe"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

const waitLong = 3 * time.Minute

// storePolicy is what barbican's vault plugin needs on the KV v2 mount.
const storePolicy = `path "barbican/data/*" { capabilities = ["create", "read", "update", "delete", "list"] }`

// site is one Barbican on its suite.Site with the default brownfield store
// "vault" on its own real server (see brownfield), reading its AppRole pair
// from the Secret "bao-approle" and its CA from "bao-ca".
type site struct {
	*suite.Site
	vault *openbao.Server
}

// newSite starts the server, creates the inputs, the store and a Barbican
// as a user writes them (the mutating webhook fills the defaults), changed
// by mutate.
func newSite(t *testing.T, release string, mutate ...func(*barbicanv1.Barbican)) *site {
	t.Helper()
	return newSiteOn(t, env.K8s, release, mutate...)
}

// newSiteOn is newSite with the inputs (credential Secrets, the MariaDB
// CR, the store's AppRole and CA Secrets) on c, a target cluster: the
// operator reads a store's Secrets on the cluster its parent's children
// land on. The Barbican and its store stay on the management cluster.
func newSiteOn(t *testing.T, c client.Client, release string, mutate ...func(*barbicanv1.Barbican)) *site {
	t.Helper()
	s := &site{Site: suite.NewSite(t, env.K8s, c, "barbican", "b")}
	s.vault = s.brownfield("bao")
	poll.Must(t, env.K8s.Create(s.Ctx, s.store("vault", s.vault, "bao", true)))
	b := &barbicanv1.Barbican{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name},
		Spec: barbicanv1.BarbicanSpec{ServiceSpec: s.Spec(release, "", env.DB.Port),
			APIServer: &barbicanv1.APIServerSpec{UWSGI: suite.OneWorker()}},
	}
	for _, m := range mutate {
		m(b)
	}
	poll.Must(t, env.K8s.Create(s.Ctx, b))
	return s
}

// brownfield starts a server set up as an existing one would be (KV v2
// mount barbican, AppRole barbican with the store policy) and writes its
// AppRole pair and CA into the Secrets <prefix>-approle and <prefix>-ca on
// the site's inputs cluster.
func (s *site) brownfield(prefix string) *openbao.Server {
	t := s.T
	t.Helper()
	srv := openbao.Start(t)
	poll.Must(t, srv.EnableKV2(s.Ctx, barbicanv1.DefaultKVMountpoint))
	poll.Must(t, srv.WritePolicy(s.Ctx, "barbican-store", storePolicy))
	roleID, secretID, err := srv.CreateAppRole(s.Ctx, "barbican", openbao.AppRoleOptions{Policies: []string{"barbican-store"}})
	poll.Must(t, err)
	for name, data := range map[string]map[string]string{
		prefix + "-approle": {barbicanv1.KeyRoleID: roleID, barbicanv1.KeySecretID: secretID},
		prefix + "-ca":      {barbicanv1.KeyCACert: string(srv.CAPEM)},
	} {
		poll.Must(t, s.C.Create(s.Ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: name}, StringData: data}))
	}
	return srv
}

// store is the brownfield store name of the site's Barbican on srv,
// reading the Secrets brownfield wrote for prefix.
func (s *site) store(name string, srv *openbao.Server, prefix string, isDefault bool) *barbicanv1.BarbicanSecretStore {
	return &barbicanv1.BarbicanSecretStore{
		ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: name},
		Spec: barbicanv1.BarbicanSecretStoreSpec{
			BarbicanRef: barbicanv1.BarbicanRef{Name: s.Name}, Type: barbicanv1.StoreOpenBao, IsDefault: isDefault,
			OpenBao: &barbicanv1.OpenBaoSpec{Server: &barbicanv1.OpenBaoServer{URL: srv.URL,
				CredentialsSecretRef: barbicanv1.SecretRef{Name: prefix + "-approle"}, CABundleSecretRef: &barbicanv1.SecretRef{Name: prefix + "-ca"}}},
		},
	}
}

// barbican reads the CR.
func (s *site) barbican() *barbicanv1.Barbican {
	var b barbicanv1.Barbican
	poll.Must(s.T, env.K8s.Get(s.Ctx, client.ObjectKey{Namespace: s.NS, Name: s.Name}, &b))
	return &b
}

// update changes the Barbican, retrying on conflicts.
func (s *site) update(change func(*barbicanv1.Barbican)) {
	s.T.Helper()
	b := s.barbican()
	poll.Update(s.T, env.K8s, b, time.Minute, func() { change(b) })
}

// condition waits until the Barbican's condition typ has status (and
// reason, if given) for the current generation.
func (s *site) condition(typ string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	s.T.Helper()
	return suite.WaitCondition(s.T, env.K8s, client.ObjectKey{Namespace: s.NS, Name: s.Name},
		func(b *barbicanv1.Barbican) []metav1.Condition { return b.Status.Conditions }, typ, status, reason, waitLong)
}

// storeCondition waits until the store's condition typ has status (and
// reason, if given) for its current generation.
func (s *site) storeCondition(name, typ string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	s.T.Helper()
	return suite.WaitCondition(s.T, env.K8s, client.ObjectKey{Namespace: s.NS, Name: name},
		func(b *barbicanv1.BarbicanSecretStore) []metav1.Condition { return b.Status.Conditions }, typ, status, reason, waitLong)
}

// serves checks that the API process the probe points at answers.
func (s *site) serves() {
	s.T.Helper()
	poll.Until(s.T, waitLong, func() error {
		url := s.barbican().Annotations[probe.URLAnnotation]
		if url == "" {
			return fmt.Errorf("no API process is serving the Barbican")
		}
		resp, err := http.Get(url + "healthcheck") //nolint:noctx // loopback probe
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%shealthcheck answered %d", url, resp.StatusCode)
		}
		return nil
	})
}
