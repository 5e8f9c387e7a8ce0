package watch

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/common/perf/secretcache"
)

// Field indexes over service CRs.
const (
	// IndexSecretRefs holds the union of the DB and service-user Secret names.
	IndexSecretRefs = "spec.secretRefs.name"
	// IndexClusterRef holds spec.database.clusterRef.name.
	IndexClusterRef = "spec.database.clusterRef.name"
	// IndexSecretStore holds "<kind>/<name>" of the effective secret store.
	IndexSecretStore = "spec.secretStoreRef"
)

// AddIndexes registers the three indexes over the kind of cr.
func AddIndexes(ctx context.Context, idx client.FieldIndexer, cr service.Object) error {
	if err := secretcache.IndexReferencedSecrets(ctx, idx, cr, IndexSecretRefs, SecretRefs); err != nil {
		return err
	}
	if err := idx.IndexField(ctx, cr, IndexClusterRef, func(o client.Object) []string {
		if ref := o.(service.Object).ServiceSpec().Database.ClusterRef; ref != nil {
			return []string{ref.Name}
		}
		return nil
	}); err != nil {
		return err
	}
	return idx.IndexField(ctx, cr, IndexSecretStore, func(o client.Object) []string {
		s := serviceapi.EffectiveSecretStore(o.(service.Object).ServiceSpec().SecretStoreRef)
		return []string{s.Kind + "/" + s.Name}
	})
}

// SecretRefs is the IndexSecretRefs function: the deduplicated union of the
// referenced Secret names.
func SecretRefs(o client.Object) []string {
	spec := o.(service.Object).ServiceSpec()
	a, b := spec.Database.SecretRef.Name, spec.ServiceUser.SecretRef.Name
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// Mapper maps watched objects to the service CRs of one kind they concern.
// A CR is reached only from the cluster its children live on ("" for the
// management cluster).
type Mapper struct {
	// Client reads the CRs from the manager's cache, by the indexes above.
	Client client.Reader
	// Object and List are empty prototypes of the CR kind and its list.
	Object service.Object
	List   client.ObjectList
	// Kind is the CR kind, the owner-kind label of remote children.
	Kind string
	// ManagedBy is the operator's managed-by label value (e.g.
	// glance-operator), which the Jobs of its CronJobs carry.
	ManagedBy string
	// AlsoBySecret adds CRs reached through an object other than the CR
	// (Glance: an attached backend's credentials Secret); may be nil.
	AlsoBySecret func(ctx context.Context, cluster string, secret client.Object) []reconcile.Request
}

// BySecret maps a Secret to the CRs referencing it whose children live on cluster.
func (m Mapper) BySecret(cluster string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		out := m.Lookup(ctx, cluster, client.InNamespace(o.GetNamespace()), client.MatchingFields{IndexSecretRefs: o.GetName()})
		if m.AlsoBySecret != nil {
			out = union(out, m.AlsoBySecret(ctx, cluster, o))
		}
		return out
	}
}

// ByMariaDB maps a MariaDB to the CRs using that cluster.
func (m Mapper) ByMariaDB(cluster string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		return m.Lookup(ctx, cluster, client.InNamespace(o.GetNamespace()), client.MatchingFields{IndexClusterRef: o.GetName()})
	}
}

// ByStore maps a ClusterSecretStore to every CR selecting it and a
// SecretStore to the CRs of its namespace selecting it.
func (m Mapper) ByStore(cluster string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		if o.GetNamespace() == "" {
			return m.Lookup(ctx, cluster, client.MatchingFields{IndexSecretStore: serviceapi.ClusterSecretStoreKind + "/" + o.GetName()})
		}
		return m.Lookup(ctx, cluster, client.InNamespace(o.GetNamespace()),
			client.MatchingFields{IndexSecretStore: serviceapi.SecretStoreKind + "/" + o.GetName()})
	}
}

// ByOwnerLabels maps a remote child to its CR when that CR names cluster.
func (m Mapper) ByOwnerLabels(cluster string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		l := o.GetLabels()
		if l[targetcluster.LabelOwnerKind] != m.Kind {
			return nil
		}
		key := types.NamespacedName{Namespace: l[targetcluster.LabelOwnerNamespace], Name: l[targetcluster.LabelOwnerName]}
		cr := m.Object.DeepCopyObject().(service.Object)
		if err := m.Client.Get(ctx, key, cr); err != nil || cr.ServiceSpec().TargetClusterName() != cluster {
			return nil
		}
		return []reconcile.Request{{NamespacedName: key}}
	}
}

// ByPeriodicRun maps a Job run by one of the CR's CronJobs (controlled by
// the CronJob, not by the CR, so Owns does not see it) to the CR named by
// the job template's instance label: a finished run reaches the CR's
// periodic-job report at once, whether the CronJob controller or a user
// (kubectl create job --from) started it. Used on the management cluster;
// on a target cluster the template's ownership labels do the same.
func (m Mapper) ByPeriodicRun(cluster string) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		ref := metav1.GetControllerOf(o)
		l := o.GetLabels()
		if ref == nil || ref.Kind != "CronJob" || m.ManagedBy == "" || l[workload.ManagedByLabel] != m.ManagedBy || l[workload.InstanceLabel] == "" {
			return nil
		}
		key := types.NamespacedName{Namespace: o.GetNamespace(), Name: l[workload.InstanceLabel]}
		cr := m.Object.DeepCopyObject().(service.Object)
		if err := m.Client.Get(ctx, key, cr); err != nil || cr.ServiceSpec().TargetClusterName() != cluster {
			return nil
		}
		return []reconcile.Request{{NamespacedName: key}}
	}
}

// ByRemoteSecret maps a Secret on a target cluster to the CRs naming that
// cluster that reference it (BySecret) and to the CR owning it by ownership
// labels, which the trimmed Secret cache keeps (operator.TrimSecretMetadata):
// a hand edit or deletion of <cr>-db-connection there reaches its CR at
// once, as Owns does on the management cluster.
func (m Mapper) ByRemoteSecret(cluster string) handler.MapFunc {
	referenced, owned := m.BySecret(cluster), m.ByOwnerLabels(cluster)
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		return union(referenced(ctx, o), owned(ctx, o))
	}
}

// Lookup lists CRs by opts and keeps those whose children live on cluster.
func (m Mapper) Lookup(ctx context.Context, cluster string, opts ...client.ListOption) []reconcile.Request {
	list := m.List.DeepCopyObject().(client.ObjectList)
	if err := m.Client.List(ctx, list, opts...); err != nil {
		log.FromContext(ctx).Error(err, "listing CRs for a watch event", "kind", m.Kind)
		return nil
	}
	var out []reconcile.Request
	_ = meta.EachListItem(list, func(o runtime.Object) error {
		cr, ok := o.(service.Object)
		if ok && cr.ServiceSpec().TargetClusterName() == cluster {
			out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: cr.GetNamespace(), Name: cr.GetName()}})
		}
		return nil
	})
	return out
}

func union(a, b []reconcile.Request) []reconcile.Request {
	for _, req := range b {
		if !slices.Contains(a, req) {
			a = append(a, req)
		}
	}
	return a
}
