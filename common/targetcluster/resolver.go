package targetcluster

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/cluster"

	"github.com/c5c3/openstack-operators/common/api/shared"
)

// syncTimeout bounds how long a pass waits for a newly engaged cluster's cache.
const syncTimeout = 10 * time.Second

// Resolver maps spec.targetClusterRef to a Target. Registered clusters are
// engaged lazily on first use and re-engaged when their Secret changes.
type Resolver struct {
	// Local is the management cluster.
	Local Target
	// Namespace holds the registration Secrets; empty disables target clusters.
	Namespace string
	// Reader reads registration Secrets on the management cluster.
	Reader client.Reader
	Scheme *runtime.Scheme
	// Cluster tunes each engaged cluster (cache filters, uncached Secrets).
	Cluster func(*cluster.Options)
	// OnEngage lets the operator add watches on a newly engaged cluster.
	OnEngage func(name string, c cluster.Cluster) error

	mu      sync.Mutex
	ctx     context.Context
	engaged map[string]*engagement
	locks   map[string]*sync.Mutex
}

func (r *Resolver) lockFor(name string) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.locks == nil {
		r.locks = map[string]*sync.Mutex{}
	}
	if r.locks[name] == nil {
		r.locks[name] = &sync.Mutex{}
	}
	return r.locks[name]
}

type engagement struct {
	version string
	target  Target
	stop    context.CancelFunc
}

// Start keeps the context engaged clusters run under; it is a manager Runnable.
func (r *Resolver) Start(ctx context.Context) error {
	r.mu.Lock()
	r.ctx = ctx
	r.mu.Unlock()
	<-ctx.Done()
	return nil
}

// Resolve returns the Local target for a nil ref, else the engaged cluster.
func (r *Resolver) Resolve(ctx context.Context, ref *shared.TargetClusterRef) (Target, error) {
	if ref == nil {
		return r.Local, nil
	}
	if r.Namespace == "" {
		return Target{}, fmt.Errorf("target cluster %q: target clusters are disabled (no clusters namespace)", ref.Name)
	}
	var s corev1.Secret
	if err := r.Reader.Get(ctx, client.ObjectKey{Namespace: r.Namespace, Name: ref.Name}, &s); err != nil {
		if apierrors.IsNotFound(err) {
			r.disengage(ref.Name)
			return Target{}, fmt.Errorf("target cluster %q is not registered in namespace %s", ref.Name, r.Namespace)
		}
		// A failed read says nothing about the cluster: keep its engagement.
		return Target{}, fmt.Errorf("reading registration of target cluster %q: %w", ref.Name, err)
	}
	// One engagement per cluster at a time: two workers must not both connect.
	lock := r.lockFor(ref.Name)
	lock.Lock()
	defer lock.Unlock()
	r.mu.Lock()
	e := r.engaged[ref.Name]
	r.mu.Unlock()
	if e != nil && e.version == s.ResourceVersion {
		return e.target, nil
	}
	reg, err := ParseRegistration(&s)
	if err != nil {
		r.disengage(ref.Name)
		return Target{}, fmt.Errorf("target cluster %q: %w", ref.Name, err)
	}
	return r.engage(ctx, ref.Name, s.ResourceVersion, reg)
}

func (r *Resolver) engage(ctx context.Context, name, version string, reg Registration) (Target, error) {
	cl, err := cluster.New(reg.Config, func(o *cluster.Options) {
		if r.Cluster != nil {
			r.Cluster(o)
		}
		o.Scheme = r.Scheme
		if len(reg.Namespaces) > 0 {
			o.Cache.DefaultNamespaces = map[string]cache.Config{}
			for _, ns := range reg.Namespaces {
				o.Cache.DefaultNamespaces[ns] = cache.Config{}
			}
		}
	})
	if err != nil {
		return Target{}, fmt.Errorf("target cluster %q: %w", name, err)
	}
	r.mu.Lock()
	base := r.ctx
	r.mu.Unlock()
	if base == nil {
		base = context.Background()
	}
	runCtx, stop := context.WithCancel(base)
	go func() { _ = cl.Start(runCtx) }()
	syncCtx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	if !cl.GetCache().WaitForCacheSync(syncCtx) {
		stop()
		return Target{}, fmt.Errorf("target cluster %q: cache did not sync within %s", name, syncTimeout)
	}
	if r.OnEngage != nil {
		if err := r.OnEngage(name, cl); err != nil {
			stop()
			return Target{}, fmt.Errorf("target cluster %q: adding watches: %w", name, err)
		}
	}
	t := Target{Name: name, Client: cl.GetClient(), Reader: cl.GetAPIReader(), Mapper: cl.GetRESTMapper(),
		APIHost: reg.Config.Host, HTTP: cl.GetHTTPClient()}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.engaged[name]; old != nil {
		old.stop()
	}
	if r.engaged == nil {
		r.engaged = map[string]*engagement{}
	}
	r.engaged[name] = &engagement{version: version, target: t, stop: stop}
	return t, nil
}

func (r *Resolver) disengage(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.engaged[name]; e != nil {
		e.stop()
		delete(r.engaged, name)
	}
}
