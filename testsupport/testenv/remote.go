package testenv

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// APIBehindService stands in for the API pod of the CR name on a cluster
// without a kubelet: a local server answering /healthcheck, a Pod whose status names
// its address and the Endpoints of the Service the operator creates, which
// is what the API server's services/proxy follows.
func APIBehindService(t *testing.T, c client.Client, ns, name, container string) {
	t.Helper()
	ctx := context.Background()
	// Endpoints refuse loopback addresses: listen on the host's own one.
	l, err := net.Listen("tcp", net.JoinHostPort(HostAddress(t), "0"))
	Must(t, err)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthcheck" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		_, _ = fmt.Fprint(w, "OK")
	}))
	_ = srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	host, portStr, err := net.SplitHostPort(srv.Listener.Addr().String())
	Must(t, err)
	port, err := strconv.Atoi(portStr)
	Must(t, err)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-api-0"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: container, Image: container}}},
	}
	Must(t, c.Create(ctx, pod))
	pod.Status.PodIP, pod.Status.PodIPs = host, []corev1.PodIP{{IP: host}}
	pod.Status.Phase = corev1.PodRunning
	Must(t, c.Status().Update(ctx, pod))
	// The API server's services/proxy resolves a Service through its
	// Endpoints, which the endpoints controller would write from the Pod.
	Must(t, c.Create(ctx, &corev1.Endpoints{ //nolint:staticcheck // what services/proxy reads
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Subsets: []corev1.EndpointSubset{{ //nolint:staticcheck // as above
			Addresses: []corev1.EndpointAddress{{IP: host, TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: pod.Name}}},
			Ports:     []corev1.EndpointPort{{Port: int32(port), Protocol: corev1.ProtocolTCP}},
		}},
	}))
}

// RegisterCluster writes the registration Secret name of the control plane
// env into namespace, with a system:masters kubeconfig for userName.
func (s *Suite) RegisterCluster(t *testing.T, env *envtest.Environment, namespace, name, userName string) {
	t.Helper()
	user, err := env.AddUser(envtest.User{Name: userName, Groups: []string{"system:masters"}}, nil)
	Must(t, err)
	kubeconfig, err := user.KubeConfig()
	Must(t, err)
	Must(t, s.Client.Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name,
			Labels: map[string]string{targetcluster.RegistrationLabel: targetcluster.RegistrationLabelValue}},
		Data: map[string][]byte{targetcluster.KubeconfigKey: kubeconfig},
	}))
}

// HostAddress is a non-loopback, non-link-local IPv4 address of this host.
func HostAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	Must(t, err)
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && n.IP.IsGlobalUnicast() {
			return n.IP.String()
		}
	}
	t.Fatalf("no non-loopback IPv4 address to stand in for a pod IP among %v", addrs)
	return ""
}

// StartRemote starts a second control plane without Gateway API, as a
// target cluster, with a client for the operator's kinds (add); both stop
// when the test ends.
func StartRemote(t *testing.T, add func(*runtime.Scheme) error) (*envtest.Environment, client.Client) {
	t.Helper()
	env, cfg, err := Start(Options{WithoutGatewayAPI: true})
	Must(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	c, err := client.New(cfg, client.Options{Scheme: managerconfig.NewScheme(add)})
	Must(t, err)
	return env, c
}

// TargetInputs creates on a target cluster what a service CR named cr
// reads there: its namespace ns, the default secret store (Ready), the
// Secrets (name to data), a Ready MariaDB "mariadb", and an API answering
// behind the CR's Service (the probe goes through services/proxy).
func TargetInputs(t *testing.T, c client.Client, ns, cr, container string, secrets map[string]map[string]string) {
	t.Helper()
	ctx := context.Background()
	Must(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	Must(t, SecretStore(ctx, c, "", serviceapi.DefaultSecretStoreName, true))
	for name, data := range secrets {
		Must(t, c.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, StringData: data}))
	}
	Must(t, MariaDB(ctx, c, ns, "mariadb", true))
	APIBehindService(t, c, ns, cr, container)
}
