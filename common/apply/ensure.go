package apply

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// HashAnnotation records the digest of the desired object a child was last written from.
const HashAnnotation = "operators.c5c3.io/desired-hash"

// Preserve copies into desired what the live object owns and an update must
// keep (a Service's clusterIP, a Deployment's replicas under an autoscaler).
type Preserve[T client.Object] func(live, desired T)

// Ensure creates desired when missing and updates it when its digest differs
// from the one recorded on the live object. Comparing digests instead of
// objects keeps server-side defaulting from turning every pass into a write.
// It returns whether it wrote; on return desired holds the object as the
// cluster has it (status included), so callers can read its readiness.
func Ensure[T client.Object](ctx context.Context, c client.Client, o Owner, desired T, keep Preserve[T]) (bool, error) {
	hash, err := Digest(desired)
	if err != nil {
		return false, err
	}
	annotations := desired.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[HashAnnotation] = hash
	desired.SetAnnotations(annotations)
	if err := o.Stamp(desired); err != nil {
		return false, err
	}
	// A zero object: decoding into a copy of desired could leave desired's
	// values in fields the server omits.
	live := reflect.New(reflect.TypeOf(desired).Elem()).Interface().(T)
	err = c.Get(ctx, client.ObjectKeyFromObject(desired), live)
	if apierrors.IsNotFound(err) {
		// AlreadyExists means the cache lags our own create, or a foreign object
		// our filtered cache cannot see: either way the retry decides.
		if err := c.Create(ctx, desired); err != nil {
			return false, fmt.Errorf("creating %T %s: %w", desired, desired.GetName(), err)
		}
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %T %s: %w", desired, desired.GetName(), err)
	}
	if !o.Owns(live) {
		return false, fmt.Errorf("%T %s/%s exists and is not owned by %s %s; refusing to adopt it",
			desired, desired.GetNamespace(), desired.GetName(), o.Kind, o.Object.GetName())
	}
	if live.GetAnnotations()[HashAnnotation] == hash {
		reflect.ValueOf(desired).Elem().Set(reflect.ValueOf(live).Elem())
		return false, nil
	}
	desired.SetLabels(merge(live.GetLabels(), desired.GetLabels()))
	desired.SetAnnotations(merge(live.GetAnnotations(), desired.GetAnnotations()))
	// An Update replaces metadata.finalizers: keep those other controllers
	// (mariadb-operator on Database/User/Grant) put on the child.
	for _, f := range live.GetFinalizers() {
		controllerutil.AddFinalizer(desired, f)
	}
	desired.SetResourceVersion(live.GetResourceVersion())
	if keep != nil {
		keep(live, desired)
	}
	if err := c.Update(ctx, desired); err != nil {
		return false, fmt.Errorf("updating %T %s: %w", desired, desired.GetName(), err)
	}
	return true, nil
}

// Digest is the SHA-256 of the object's JSON encoding (map keys sorted by encoding/json).
func Digest(obj any) (string, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return "", fmt.Errorf("encoding %T: %w", obj, err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), nil
}

func merge(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Absent deletes obj (named by namespace and name) when it exists and is owned.
func Absent(ctx context.Context, c client.Client, o Owner, obj client.Object) error {
	err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %T %s: %w", obj, obj.GetName(), err)
	}
	if !o.Owns(obj) || !obj.GetDeletionTimestamp().IsZero() {
		return nil
	}
	if err := c.Delete(ctx, obj, client.PropagationPolicy("Background")); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting %T %s: %w", obj, obj.GetName(), err)
	}
	return nil
}
