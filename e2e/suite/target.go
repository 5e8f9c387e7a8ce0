package suite

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/e2e/cluster"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Target is a second local control plane registered as a target cluster.
type Target struct {
	// C is a client of the target cluster with the operator's kinds.
	C client.Client
	// Registration is the kubeconfig Secret on the management cluster
	// that registers the target under the name "target".
	Registration *corev1.Secret
}

// StartTarget brings up a second local control plane named name with the
// third-party CRDs, the real ESO and its fake store, a pod runner of the
// suite's profiles, and registers it on the management cluster as the
// target cluster "target". Everything stops when the test ends.
func StartTarget(t *testing.T, env *Env, name string, addToScheme func(*runtime.Scheme) error) *Target {
	t.Helper()
	c, err := cluster.Up(name)
	poll.Must(t, err)
	t.Cleanup(func() {
		var code int
		KeepOrDown(c, &code)
	})
	poll.Must(t, InstallCRDs(c, false))
	eso, err := StartESO(c)
	poll.Must(t, err)
	t.Cleanup(func() { _ = eso.Stop(10 * time.Second) })
	remote, err := client.New(c.Config, client.Options{Scheme: managerconfig.NewScheme(addToScheme)})
	poll.Must(t, err)
	poll.Must(t, PrepareCluster(t.Context(), remote))
	m, err := StartMachine(t.Context(), c.Config, env.DB, env.Profiles, env.Hosts)
	poll.Must(t, err)
	t.Cleanup(m.Stop)

	kc, err := cluster.EmbeddedKubeconfig(c.Config)
	poll.Must(t, err)
	reg := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ClustersNamespace, Name: "target",
			Labels: map[string]string{targetcluster.RegistrationLabel: targetcluster.RegistrationLabelValue}},
		Data: map[string][]byte{targetcluster.KubeconfigKey: kc},
	}
	poll.Must(t, env.K8s.Create(t.Context(), reg))
	return &Target{C: remote, Registration: reg}
}
