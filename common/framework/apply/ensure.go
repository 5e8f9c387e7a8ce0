package apply

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// HashAnnotation records the digest of the desired object a child was last written from.
const HashAnnotation = "operators.c5c3.io/desired-hash"

// KeysAnnotation records which labels and annotations the operator wrote, so
// one it no longer wants is removed while keys other controllers set are kept.
const KeysAnnotation = "operators.c5c3.io/managed-keys"

// Preserve copies into desired what the live object owns and an update must
// keep (a Service's clusterIP, a Deployment's replicas under an autoscaler).
type Preserve[T client.Object] func(live, desired T)

// Ensure creates desired when missing and updates it when its digest differs
// from the one recorded on the live object or when the live object drifted
// from it (Drift: only fields desired sets count, so server defaults do not).
// It returns whether it wrote; on return desired holds the object as the
// cluster has it (status included), so callers can read its readiness.
func Ensure[T client.Object](ctx context.Context, c client.Client, o Owner, desired T, keep Preserve[T]) (bool, error) {
	wrote, _, err := ensure(ctx, c, o, desired, keep, nil)
	return wrote, err
}

// ensure is Ensure; with immutable set, a live object that an update cannot
// turn into desired is replaced instead (see EnsureReplacing).
func ensure[T client.Object](ctx context.Context, c client.Client, o Owner, desired T, keep Preserve[T], immutable Immutable[T]) (wrote bool, replacing string, err error) {
	hash, err := Digest(desired)
	if err != nil {
		return false, "", err
	}
	annotations := desired.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[KeysAnnotation] = managedKeys(desired.GetLabels(), desired.GetAnnotations())
	annotations[HashAnnotation] = hash
	desired.SetAnnotations(annotations)
	if err := o.Stamp(desired); err != nil {
		return false, "", err
	}
	// A zero object: decoding into a copy of desired could leave desired's
	// values in fields the server omits.
	live := reflect.New(reflect.TypeOf(desired).Elem()).Interface().(T)
	err = c.Get(ctx, client.ObjectKeyFromObject(desired), live)
	if apierrors.IsNotFound(err) {
		// AlreadyExists means the cache lags our own create, or a foreign object
		// our filtered cache cannot see: either way the retry decides.
		if err := c.Create(ctx, desired); err != nil {
			hint := ""
			if apierrors.IsAlreadyExists(err) {
				hint = " (if this persists, an object the operator did not create, without its managed-by label, " +
					"holds the name; it is never adopted: delete or rename it)"
			}
			return false, "", fmt.Errorf("creating %T %s: %w%s", desired, desired.GetName(), err, hint)
		}
		return true, "", nil
	}
	if err != nil {
		return false, "", fmt.Errorf("reading %T %s: %w", desired, desired.GetName(), err)
	}
	if !o.Owns(live) {
		return false, "", fmt.Errorf("%T %s/%s exists and is not owned by %s %s; refusing to adopt it",
			desired, desired.GetNamespace(), desired.GetName(), o.Kind, o.Object.GetName())
	}
	if immutable != nil {
		if why := immutable(live, desired); why != "" {
			replacing, err := replace(ctx, c, live, why)
			return false, replacing, err
		}
	}
	// What keep copies from live is the cluster's, never drift; desired is
	// either written or replaced by live below, so no copy is needed.
	if keep != nil {
		keep(live, desired)
	}
	if live.GetAnnotations()[HashAnnotation] == hash {
		path, drifted := Drift(live, desired)
		if !drifted {
			reflect.ValueOf(desired).Elem().Set(reflect.ValueOf(live).Elem())
			return false, "", nil
		}
		// The path names a field or a key, never a value: Secrets pass here.
		log.FromContext(ctx).Info("putting back a child that drifted from its desired state",
			"kind", reflect.TypeOf(desired).Elem().Name(), "namespace", desired.GetNamespace(), "name", desired.GetName(), "path", path)
	}
	dropped := droppedKeys(live.GetAnnotations()[KeysAnnotation], desired.GetAnnotations()[KeysAnnotation])
	desired.SetLabels(merge(live.GetLabels(), desired.GetLabels(), dropped["l"]))
	desired.SetAnnotations(merge(live.GetAnnotations(), desired.GetAnnotations(), dropped["a"]))
	// An Update replaces metadata.finalizers: keep those other controllers
	// (mariadb-operator on Database/User/Grant) put on the child.
	for _, f := range live.GetFinalizers() {
		controllerutil.AddFinalizer(desired, f)
	}
	desired.SetResourceVersion(live.GetResourceVersion())
	if err := c.Update(ctx, desired); err != nil {
		return false, "", fmt.Errorf("updating %T %s: %w", desired, desired.GetName(), err)
	}
	return true, "", nil
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

// merge overlays over on base, without the keys in drop.
func merge(base, over map[string]string, drop map[string]bool) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		if !drop[k] {
			out[k] = v
		}
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// managedKeys lists the desired label ("l:") and annotation ("a:") keys, sorted.
func managedKeys(labels, annotations map[string]string) string {
	keys := make([]string, 0, len(labels)+len(annotations))
	for k := range labels {
		keys = append(keys, "l:"+k)
	}
	for k := range annotations {
		if k != HashAnnotation && k != KeysAnnotation {
			keys = append(keys, "a:"+k)
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, ",")
}

// droppedKeys are the keys written before (prev) and no longer desired (now),
// by kind ("l" or "a").
func droppedKeys(prev, now string) map[string]map[string]bool {
	want := map[string]bool{}
	for _, k := range strings.Split(now, ",") {
		want[k] = true
	}
	out := map[string]map[string]bool{"l": {}, "a": {}}
	for _, k := range strings.Split(prev, ",") {
		kind, name, ok := strings.Cut(k, ":")
		if ok && !want[k] && out[kind] != nil {
			out[kind][name] = true
		}
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
