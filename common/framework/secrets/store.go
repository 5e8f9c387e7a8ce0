// Package secrets gates a pass on the ESO secret store and the credential
// Secrets, and digests credential values for rollout annotations.
package secrets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// ESO kinds, read as unstructured: the ESO Go API does not build against our
// controller-runtime, and only the Ready condition is needed.
var (
	ESOGroupVersion       = schema.GroupVersion{Group: "external-secrets.io", Version: "v1"}
	ClusterSecretStoreGVK = ESOGroupVersion.WithKind(serviceapi.ClusterSecretStoreKind)
	SecretStoreGVK        = ESOGroupVersion.WithKind(serviceapi.SecretStoreKind)
	ExternalSecretGVK     = ESOGroupVersion.WithKind("ExternalSecret")
)

// StoreReady reports whether the effective store exists and is Ready; the
// message says why not.
func StoreReady(ctx context.Context, c client.Reader, namespace string, ref *serviceapi.SecretStoreRef) (bool, string, error) {
	eff := serviceapi.EffectiveSecretStore(ref)
	u := &unstructured.Unstructured{}
	key := client.ObjectKey{Name: eff.Name}
	if eff.Kind == serviceapi.SecretStoreKind {
		u.SetGroupVersionKind(SecretStoreGVK)
		key.Namespace = namespace
	} else {
		u.SetGroupVersionKind(ClusterSecretStoreGVK)
	}
	if err := c.Get(ctx, key, u); err != nil {
		if apierrors.IsNotFound(err) {
			return false, fmt.Sprintf("%s %s not found", eff.Kind, eff.Name), nil
		}
		return false, "", fmt.Errorf("reading %s %s: %w", eff.Kind, eff.Name, err)
	}
	if ready, msg := readyCondition(u); !ready {
		return false, fmt.Sprintf("%s %s is not Ready: %s", eff.Kind, eff.Name, msg), nil
	}
	return true, "", nil
}

// readyCondition reads status.conditions[type=Ready] of an ESO object.
func readyCondition(u *unstructured.Unstructured) (bool, string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Ready" {
			continue
		}
		msg, _ := m["message"].(string)
		return m["status"] == "True", msg
	}
	return false, "no Ready condition"
}

// Digest is the hex SHA-256 of a value; empty input gives an empty digest so
// callers can omit the annotation.
func Digest(value []byte) string {
	if len(value) == 0 {
		return ""
	}
	sum := sha256.Sum256(value)
	return hex.EncodeToString(sum[:])
}
