package mariadb

import (
	"context"
	"fmt"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
)

// Cleanup issues Delete on the Database, User and Grant named name and reports
// whether any was still live (present and not deleting) before the Delete: a
// check after it would always see DeletionTimestamp set and release at once.
// It reads uncached so a pass never releases on a stale cache.
// Objects not owned by o (hand-made, another owner's) are left alone.
func Cleanup(ctx context.Context, c client.Client, reader client.Reader, o apply.Owner, namespace, name string) (bool, error) {
	objs := []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}}
	live := false
	for _, obj := range objs {
		err := reader.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, obj)
		if apierrors.IsNotFound(err) || apimeta.IsNoMatchError(err) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("reading %T %s: %w", obj, name, err)
		}
		if !o.Owns(obj) {
			continue
		}
		if obj.GetDeletionTimestamp().IsZero() {
			live = true
		}
		if err := c.Delete(ctx, obj); client.IgnoreNotFound(err) != nil {
			return false, fmt.Errorf("deleting %T %s: %w", obj, name, err)
		}
	}
	return live, nil
}
