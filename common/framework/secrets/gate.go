package secrets

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Usable reads a Secret and reports whether it holds every key non-empty. When
// it does not, the same-named ExternalSecret only shapes the message.
func Usable(ctx context.Context, c client.Reader, namespace, name string, keys ...string) (*corev1.Secret, string, error) {
	var s corev1.Secret
	err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &s)
	if err != nil && !apierrors.IsNotFound(err) {
		return nil, "", fmt.Errorf("reading Secret %s: %w", name, err)
	}
	var missing []string
	if err == nil {
		for _, k := range keys {
			if len(s.Data[k]) == 0 {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return &s, "", nil
		}
	}
	return nil, explain(ctx, c, namespace, name, err != nil, missing), nil
}

func explain(ctx context.Context, c client.Reader, namespace, name string, notFound bool, missing []string) string {
	es := &unstructured.Unstructured{}
	es.SetGroupVersionKind(ExternalSecretGVK)
	esErr := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, es)
	switch {
	case notFound && esErr != nil:
		return fmt.Sprintf("Secret %s not found and no ExternalSecret %s", name, name)
	case notFound:
		_, msg := readyCondition(es)
		return fmt.Sprintf("Secret %s not found; ExternalSecret %s waiting to sync: %s", name, name, msg)
	default:
		return fmt.Sprintf("Secret %s is missing keys: %s", name, strings.Join(missing, ", "))
	}
}
