package configartifact

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
)

// BuildSecret returns the immutable Secret for data: the artefact that
// carries credentials (Glance's backends, Barbican's config).
func BuildSecret(namespace, base string, labels, data map[string]string) *corev1.Secret {
	l := map[string]string{BaseLabel: base}
	maps.Copy(l, labels)
	bytes := make(map[string][]byte, len(data))
	for k, v := range data {
		bytes[k] = []byte(v)
	}
	immutable := true
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: Name(base, data), Namespace: namespace, Labels: l},
		Type:       corev1.SecretTypeOpaque,
		Data:       bytes,
		Immutable:  &immutable,
	}
}

// EnsureSecret creates s unless it exists; an existing one must be ours.
// Existence is read from the metadata-only Secret cache (the operators never
// cache Secret data); reader reads uncached when a create collides.
func EnsureSecret(ctx context.Context, c client.Client, reader client.Reader, o apply.Owner, s *corev1.Secret) error {
	live := secretMeta()
	err := c.Get(ctx, client.ObjectKeyFromObject(s), live)
	if err == nil {
		if !o.Owns(live) {
			return fmt.Errorf("secret %s exists and is not owned by %s %s", s.Name, o.Kind, o.Object.GetName())
		}
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("reading Secret %s: %w", s.Name, err)
	}
	if err := o.Stamp(s); err != nil {
		return err
	}
	err = c.Create(ctx, s)
	if apierrors.IsAlreadyExists(err) {
		var other corev1.Secret
		if err := reader.Get(ctx, client.ObjectKeyFromObject(s), &other); err != nil {
			return fmt.Errorf("reading Secret %s: %w", s.Name, err)
		}
		if !o.Owns(&other) || !maps.EqualFunc(other.Data, s.Data, func(a, b []byte) bool { return string(a) == string(b) }) {
			return fmt.Errorf("secret %s exists and is not owned by %s %s (or differs); refusing to mount it", s.Name, o.Kind, o.Object.GetName())
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("creating Secret %s: %w", s.Name, err)
	}
	return nil
}

// PruneSecrets deletes owned generations of base beyond the newest Keep,
// never the current one; it lists metadata only.
func PruneSecrets(ctx context.Context, c client.Client, o apply.Owner, namespace, base, current string) error {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
	if err := c.List(ctx, list, client.InNamespace(namespace), client.MatchingLabels{BaseLabel: base}); err != nil {
		return fmt.Errorf("listing Secrets of %s: %w", base, err)
	}
	items := make([]metav1.Object, 0, len(list.Items))
	for i := range list.Items {
		items = append(items, &list.Items[i])
	}
	for _, obj := range Expired(items, o, current) {
		m := obj.(*metav1.PartialObjectMetadata)
		m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
		if err := c.Delete(ctx, m); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("pruning Secret %s: %w", m.Name, err)
		}
	}
	return nil
}

func secretMeta() *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{}
	m.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	return m
}
