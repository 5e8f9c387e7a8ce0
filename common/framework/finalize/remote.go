package finalize

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// RemoteKind is a projected kind listed on a target cluster at deletion.
type RemoteKind = schema.GroupVersionKind

// pageSize bounds one metadata-only list page.
const pageSize = 500

// DeleteRemoteChildren deletes every object of kinds in the owner's namespace
// that carries its ownership labels, listing uncached metadata in pages. It
// does not wait for the deletions. A kind the cluster does not serve (a
// NoMatch answer from discovery) is skipped: it can hold no children. Any
// other discovery error, like a failed list or delete, is returned after the
// remaining kinds were handled, so the caller keeps the finalizer: a
// transient discovery failure must not release it while children of that
// kind may remain.
func DeleteRemoteChildren(ctx context.Context, t targetcluster.Target, kinds []RemoteKind, ownerKind string, owner client.Object) error {
	sel := client.MatchingLabels(targetcluster.OwnerLabels(ownerKind, owner.GetName(), owner.GetNamespace()))
	var errs []error
	for _, gvk := range kinds {
		served, err := targetcluster.KindServed(t.Mapper, gvk)
		if err != nil {
			errs = append(errs, fmt.Errorf("remote %s: %w", gvk.Kind, err))
			continue
		}
		if !served {
			continue
		}
		if err := deleteOwned(ctx, t, gvk, owner.GetNamespace(), sel); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// deleteOwned deletes the objects of one kind the selector matches in namespace.
func deleteOwned(ctx context.Context, t targetcluster.Target, gvk RemoteKind, namespace string, sel client.MatchingLabels) error {
	list := &metav1.PartialObjectMetadataList{}
	list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
	for {
		if err := t.Reader.List(ctx, list, client.InNamespace(namespace), sel, client.Limit(pageSize), client.Continue(list.Continue)); err != nil {
			return fmt.Errorf("listing remote %s: %w", gvk.Kind, err)
		}
		for i := range list.Items {
			item := &list.Items[i]
			item.SetGroupVersionKind(gvk)
			if err := t.Client.Delete(ctx, item, client.PropagationPolicy(metav1.DeletePropagationBackground)); client.IgnoreNotFound(err) != nil {
				return fmt.Errorf("deleting remote %s %s: %w", gvk.Kind, item.Name, err)
			}
		}
		if list.Continue == "" {
			return nil
		}
	}
}
