// Package operator holds the manager plumbing the service operators share:
// a cache that holds only what the operator owns or references, a client
// that never caches Secret data, and the scheme of the third-party kinds.
package operator

import (
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/workload"
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
// Jobs of a big cluster never enter memory. Secrets are watched as metadata
// only (see ClientOptions).
func CacheOptions(managedBy string, namespaces ...string) cache.Options {
	sel := labels.SelectorFromSet(labels.Set{workload.ManagedByLabel: managedBy})
	byLabel := cache.ByObject{Label: sel}
	opts := cache.Options{ByObject: map[client.Object]cache.ByObject{}}
	for _, k := range WorkloadKinds() {
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

// ClientOptions make every typed Secret read go to the API server: Secret
// data is read for the few referenced Secrets only, never cached cluster-wide.
func ClientOptions() client.Options {
	return client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}}
}
