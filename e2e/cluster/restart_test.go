package cluster

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Restarting etcd and then the API server of a real local control plane
// replaces each process (new pid in kwokctl's file) and keeps the cluster's
// objects; the controller manager, without leader election, rides it out.
func TestRestartKeepsTheCluster(t *testing.T) {
	if Kind() {
		if err := (&Cluster{external: true}).Restart("kube-apiserver"); err == nil {
			t.Fatal("Restart on kind succeeded without doing anything")
		}
		return
	}
	c, err := Up("e2e-restart")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Down() })
	cs := kubernetes.NewForConfigOrDie(c.Config)
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "before"}, Data: map[string]string{"k": "v"}}
	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	kcm := c.pid(t, "kube-controller-manager")

	for _, component := range []string{"etcd", "kube-apiserver"} {
		before := c.pid(t, component)
		if err := c.Restart(component); err != nil {
			t.Fatal(err)
		}
		if after := c.pid(t, component); after == before || !alive(atoi(t, after)) {
			t.Fatalf("%s: pid %s before, %s after the restart (alive %t)", component, before, after, alive(atoi(t, after)))
		}
		if alive(atoi(t, before)) {
			t.Fatalf("%s: the old process %s still runs", component, before)
		}
		// Back once the API server answers with the object written before.
		var got *corev1.ConfigMap
		poll.Until(t, 2*time.Minute, func() error {
			got, err = cs.CoreV1().ConfigMaps("default").Get(ctx, "before", metav1.GetOptions{})
			return err
		})
		if got.Data["k"] != "v" {
			t.Fatalf("after restarting %s the ConfigMap holds %v", component, got.Data)
		}
	}
	if now := c.pid(t, "kube-controller-manager"); now != kcm || !alive(atoi(t, now)) {
		t.Fatalf("kube-controller-manager did not ride out the restarts: pid %s → %s", kcm, now)
	}
}

func (c *Cluster) pid(t *testing.T, component string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(c.root, ".cache", "kwok", "clusters", c.Name, "pids", component+".pid"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestListenAddrs(t *testing.T) {
	argv := []string{"/bin/etcd", "--name=node0", "--listen-client-urls=http://127.0.0.1:32759",
		"--listen-peer-urls=http://127.0.0.1:32760,http://127.0.0.2:32761", "--advertise-client-urls=http://127.0.0.1:32759",
		"--etcd-servers=http://127.0.0.1:1", "--secure-port=32758", "--server-address=127.0.0.1:32757", "--secure-port"}
	want := []string{"127.0.0.1:32759", "127.0.0.1:32760", "127.0.0.2:32761", "127.0.0.1:32758", "127.0.0.1:32757"}
	if got := listenAddrs(argv); !slices.Equal(got, want) {
		t.Errorf("listenAddrs = %v, want %v", got, want)
	}
}
