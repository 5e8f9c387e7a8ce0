package attach

import (
	"context"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// Mount says where a child's section must land for the parent's API to serve
// it: the Secret that the parent's Deployment (named after the parent)
// mounts as Volume, its key Key, a whole line Line.
type Mount struct {
	Namespace, Deployment string
	Volume, Key, Line     string
}

// Projected reports whether the live Deployment on t mounts, as m.Volume, a
// Secret whose m.Key holds m.Line as a whole line (no substring match): only
// then do the API pods run with the child configured. Anything missing is
// not projected, with a message saying what.
func Projected(ctx context.Context, t targetcluster.Target, m Mount) (bool, string, error) {
	var d appsv1.Deployment
	err := t.Client.Get(ctx, client.ObjectKey{Namespace: m.Namespace, Name: m.Deployment}, &d)
	if apierrors.IsNotFound(err) {
		return false, fmt.Sprintf("Deployment %s does not exist yet", m.Deployment), nil
	}
	if err != nil {
		return false, "", fmt.Errorf("reading Deployment %s: %w", m.Deployment, err)
	}
	secret := ""
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Name == m.Volume && v.Secret != nil {
			secret = v.Secret.SecretName
		}
	}
	if secret == "" {
		return false, fmt.Sprintf("Deployment %s mounts no Secret as volume %s", m.Deployment, m.Volume), nil
	}
	var s corev1.Secret
	if err := t.Client.Get(ctx, client.ObjectKey{Namespace: m.Namespace, Name: secret}, &s); err != nil {
		if apierrors.IsNotFound(err) {
			return false, fmt.Sprintf("Secret %s is gone", secret), nil
		}
		return false, "", fmt.Errorf("reading Secret %s: %w", secret, err)
	}
	for _, line := range strings.Split(string(s.Data[m.Key]), "\n") {
		if strings.TrimRight(line, "\r") == m.Line {
			return true, fmt.Sprintf("Deployment %s mounts Secret %s with %s", m.Deployment, secret, m.Line), nil
		}
	}
	return false, fmt.Sprintf("Deployment %s mounts Secret %s, which has no %s yet", m.Deployment, secret, m.Line), nil
}
