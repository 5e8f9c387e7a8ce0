// Package managerconfig holds the manager plumbing the service operators share:
// a cache that holds only what the operator owns or references, a client
// that never caches Secret data, and the scheme of the third-party kinds.
package managerconfig

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// NewScheme registers the built-in kinds, MariaDB and Gateway API, plus add.
func NewScheme(add ...func(*runtime.Scheme) error) *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(mariadbv1alpha1.AddToScheme(s))
	utilruntime.Must(gatewayv1.Install(s))
	for _, f := range add {
		utilruntime.Must(f(s))
	}
	return s
}

// CacheOptions restrict the informers of the owned workload kinds to objects
// labelled managed-by=<managedBy>, so unrelated Deployments, ConfigMaps and
// Jobs of a big cluster never enter memory. No cached object keeps its
// managedFields, which nothing reads. Secrets are cached as metadata only
// (see ClientOptions) and, since that watch sees every Secret of a
// namespace (of every namespace holding a CR on the management cluster,
// common/perf/secretcache; of the listed ones on a target cluster), each is
// trimmed to what the watches read (TrimSecretMetadata).
func CacheOptions(managedBy string, namespaces ...string) cache.Options {
	sel := labels.SelectorFromSet(labels.Set{workload.ManagedByLabel: managedBy})
	byLabel := cache.ByObject{Label: sel}
	opts := cache.Options{
		DefaultTransform: cache.TransformStripManagedFields(),
		ByObject: map[client.Object]cache.ByObject{
			// Keyed by the typed Secret, this applies to the Secret
			// informer of any form: one that keeps metadata is the only
			// one (common/perf/secretcache's informers turn each Secret into
			// its metadata before this transform).
			&corev1.Secret{}: {Transform: TrimSecretMetadata},
		},
	}
	for _, k := range FilteredKinds() {
		opts.ByObject[k] = byLabel
	}
	if len(namespaces) > 0 {
		opts.DefaultNamespaces = map[string]cache.Config{}
		for _, ns := range namespaces {
			opts.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	return opts
}

// keptSecretLabels are the labels the operators themselves put on the
// Secrets they create: the only ones a trimmed Secret keeps.
var keptSecretLabels = []string{
	workload.ManagedByLabel,
	targetcluster.LabelOwnerKind, targetcluster.LabelOwnerName, targetcluster.LabelOwnerNamespace,
	// Secret config artefacts are listed by it for pruning, from this cache.
	workload.ConfigBaseLabel,
}

// TrimSecretMetadata is the cache transform of Secrets. The Secret
// informer holds the metadata of every Secret of its namespaces (a referenced
// credential Secret may be hand-made or written by ESO, so no selector can
// narrow it),
// and its events are mapped by name and namespace (referenced Secrets) or by
// controller reference (owned Secrets). A Secret's metadata therefore keeps
// its identity (name, namespace, uid, resourceVersion, creation and deletion
// timestamps), its owner references and the ownership labels the operator
// sets; managedFields, annotations (kubectl's last-applied-configuration
// holds a whole Secret), every other label, finalizers and the rest go.
// Anything else (a typed Secret, were one ever cached) loses its
// managedFields only: its reader may want the rest.
func TrimSecretMetadata(in any) (any, error) {
	m, ok := in.(*metav1.PartialObjectMetadata)
	if !ok {
		return cache.TransformStripManagedFields()(in)
	}
	m.ObjectMeta = metav1.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               m.UID,
		ResourceVersion:   m.ResourceVersion,
		CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp,
		OwnerReferences:   m.OwnerReferences,
		Labels:            keepLabels(m.Labels, keptSecretLabels),
	}
	return m, nil
}

// keepLabels returns the entries of l under keys, nil when there are none.
func keepLabels(l map[string]string, keys []string) map[string]string {
	var out map[string]string
	for _, k := range keys {
		if v, ok := l[k]; ok {
			if out == nil {
				out = make(map[string]string, len(keys))
			}
			out[k] = v
		}
	}
	return out
}

// ClientOptions make every typed Secret read bypass the cache (the targets'
// Secret memo answers them, common/framework/secrets): Secret data is held for the
// few Secrets the operator references or writes only, never cluster-wide.
func ClientOptions() client.Options {
	return client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}}
}
