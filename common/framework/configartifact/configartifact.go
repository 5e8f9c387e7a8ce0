// Package configartifact writes content-addressed, immutable config objects
// (<base>-<hash8>) and prunes their history to the newest three.
package configartifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// BaseLabel groups every generation of one artefact.
const BaseLabel = workload.ConfigBaseLabel

// Keep is how many generations survive a prune, the current one included.
const Keep = 3

// Hash is the hex SHA-256 over the data keys sorted, each encoded as
// len(k):k=len(v):v and a newline, so no two maps collide by concatenation.
func Hash(data map[string]string) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		v := data[k]
		_, _ = fmt.Fprintf(h, "%d:%s=%d:%s\n", len(k), k, len(v), v)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Name is <base>-<first 8 hex of Hash(data)>.
func Name(base string, data map[string]string) string {
	return base + "-" + Hash(data)[:8]
}

// BuildConfigMap returns the immutable ConfigMap for data.
func BuildConfigMap(namespace, base string, labels, data map[string]string) *corev1.ConfigMap {
	l := map[string]string{BaseLabel: base}
	for k, v := range labels {
		l[k] = v
	}
	immutable := true
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: Name(base, data), Namespace: namespace, Labels: l},
		Data:       data,
		Immutable:  &immutable,
	}
}

// EnsureConfigMap creates cm unless it exists; an existing one must be ours.
// Content addressing makes an existing owned object already correct. reader
// reads uncached: a foreign object is invisible to the label-filtered cache.
func EnsureConfigMap(ctx context.Context, c client.Client, reader client.Reader, o apply.Owner, cm *corev1.ConfigMap) error {
	var live corev1.ConfigMap
	err := c.Get(ctx, client.ObjectKeyFromObject(cm), &live)
	if err == nil {
		if !o.Owns(&live) {
			return fmt.Errorf("ConfigMap %s exists and is not owned by %s %s", cm.Name, o.Kind, o.Object.GetName())
		}
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("reading ConfigMap %s: %w", cm.Name, err)
	}
	if err := o.Stamp(cm); err != nil {
		return err
	}
	err = c.Create(ctx, cm)
	if apierrors.IsAlreadyExists(err) {
		if err := reader.Get(ctx, client.ObjectKeyFromObject(cm), &live); err != nil {
			return fmt.Errorf("reading ConfigMap %s: %w", cm.Name, err)
		}
		if !o.Owns(&live) || !maps.Equal(live.Data, cm.Data) {
			return fmt.Errorf("ConfigMap %s exists and is not owned by %s %s (or differs); refusing to mount it", cm.Name, o.Kind, o.Object.GetName())
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("creating ConfigMap %s: %w", cm.Name, err)
	}
	return nil
}

// PruneConfigMaps deletes owned generations of base beyond the newest Keep,
// never the current one.
func PruneConfigMaps(ctx context.Context, c client.Client, o apply.Owner, namespace, base, current string) error {
	var list corev1.ConfigMapList
	if err := c.List(ctx, &list, client.InNamespace(namespace), client.MatchingLabels{BaseLabel: base}); err != nil {
		return fmt.Errorf("listing ConfigMaps of %s: %w", base, err)
	}
	items := make([]metav1.Object, 0, len(list.Items))
	for i := range list.Items {
		items = append(items, &list.Items[i])
	}
	for _, obj := range Expired(items, o, current) {
		cm := obj.(*corev1.ConfigMap)
		if err := c.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("pruning ConfigMap %s: %w", cm.Name, err)
		}
	}
	return nil
}

// Expired picks the owned generations past the newest Keep (current counted
// first), newest by creationTimestamp, ties by name descending.
func Expired(items []metav1.Object, o apply.Owner, current string) []metav1.Object {
	var others []metav1.Object
	for _, it := range items {
		if it.GetName() != current && o.Owns(it) && it.GetDeletionTimestamp().IsZero() {
			others = append(others, it)
		}
	}
	sort.Slice(others, func(i, j int) bool {
		ti, tj := others[i].GetCreationTimestamp(), others[j].GetCreationTimestamp()
		if !ti.Equal(&tj) {
			return tj.Before(&ti)
		}
		return others[i].GetName() > others[j].GetName()
	})
	if len(others) <= Keep-1 {
		return nil
	}
	return others[Keep-1:]
}
