package finalize

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/targetcluster"
)

// RemoteKind is a projected kind listed on a target cluster at deletion.
type RemoteKind = schema.GroupVersionKind

// pageSize bounds one metadata-only list page.
const pageSize = 500

// DeleteRemoteChildren deletes every object of kinds in the owner's namespace
// that carries its ownership labels, listing uncached metadata in pages. It
// does not wait for the deletions. A kind the cluster does not serve is skipped.
func DeleteRemoteChildren(ctx context.Context, t targetcluster.Target, kinds []RemoteKind, ownerKind string, owner client.Object) error {
	sel := client.MatchingLabels(targetcluster.OwnerLabels(ownerKind, owner.GetName(), owner.GetNamespace()))
	for _, gvk := range kinds {
		if served, err := targetcluster.KindServed(t.Mapper, gvk); err != nil || !served {
			continue
		}
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		for {
			if err := t.Reader.List(ctx, list, client.InNamespace(owner.GetNamespace()), sel, client.Limit(pageSize), client.Continue(list.Continue)); err != nil {
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
				break
			}
		}
	}
	return nil
}
