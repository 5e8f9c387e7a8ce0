package attach_test

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// On a real API server: a child counts as projected only when the parent's
// Deployment mounts a Secret whose key holds its line as a whole line (a
// CRLF ending tolerated); a longer section name, a comment, an indented
// line, a missing volume, Secret or Deployment are each not projected,
// with a message saying which.
func TestProjectedNeedsTheWholeLine(t *testing.T) {
	_, c := testenv.StartRemote(t, func(*runtime.Scheme) error { return nil })
	ctx := context.Background()
	const ns = "default"
	target := targetcluster.Target{Client: c, Reader: c}
	m := attach.Mount{Namespace: ns, Deployment: "api", Volume: "config", Key: "api.conf", Line: "[secretstore:vault]"}

	ok, msg, err := attach.Projected(ctx, target, m)
	if err != nil || ok || !strings.Contains(msg, "does not exist yet") {
		t.Fatalf("no Deployment: %v %q %v", ok, msg, err)
	}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "api"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "api"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "api"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "api", Image: "api"}}},
			},
		},
	}
	testenv.Must(t, c.Create(ctx, d))
	if ok, msg, err := attach.Projected(ctx, target, m); err != nil || ok || !strings.Contains(msg, "mounts no Secret as volume config") {
		t.Fatalf("no volume: %v %q %v", ok, msg, err)
	}
	d.Spec.Template.Spec.Volumes = []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "conf"}}}}
	testenv.Must(t, c.Update(ctx, d))
	if ok, msg, err := attach.Projected(ctx, target, m); err != nil || ok || !strings.Contains(msg, "Secret conf is gone") {
		t.Fatalf("no Secret: %v %q %v", ok, msg, err)
	}

	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "conf"}}
	testenv.Must(t, c.Create(ctx, sec))
	for _, tc := range []struct {
		conf string
		want bool
	}{
		{"[DEFAULT]\n[secretstore:vault]\nx = 1\n", true},
		{"[secretstore:vault]\r\nx = 1\r\n", true},
		{"[secretstore:vault2]\n", false},
		{"# [secretstore:vault]\n", false},
		{" [secretstore:vault]\n", false},
		{"[secretstore:vault] \n", false},
		{"x = [secretstore:vault]\n", false},
		{"[secretstore:VAULT]\n", false},
	} {
		sec.Data = map[string][]byte{"api.conf": []byte(tc.conf)}
		testenv.Must(t, c.Update(ctx, sec))
		ok, msg, err := attach.Projected(ctx, target, m)
		if err != nil || ok != tc.want {
			t.Errorf("%q: projected %v (%q, %v), want %v", tc.conf, ok, msg, err, tc.want)
		}
	}
}
