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

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// syncTimeout bounds how long a pass waits for a newly engaged cluster's cache.
const syncTimeout = 10 * time.Second

// Resolver maps spec.targetClusterRef to a Target. Registered clusters are
// engaged lazily on first use, re-engaged when their Secret changes and
// disengaged (cache, watches and connections stopped) when the last CR that
// resolved them is released.
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
	// OnEngage lets the operator add watches on a newly engaged cluster;
	// AlsoOnEngage chains each controller's hook.
	OnEngage func(name string, c cluster.Cluster) error

	mu      sync.Mutex
	ctx     context.Context
	engaged map[string]*engagement
	locks   map[string]*sync.Mutex
	// users maps each CR that resolved a registered cluster to its name.
	users map[client.ObjectKey]string
}

// AlsoOnEngage chains f after the hooks set so far: every controller that
// resolves through r adds its own watches on an engaged cluster.
func (r *Resolver) AlsoOnEngage(f func(name string, c cluster.Cluster) error) {
	prev := r.OnEngage
	r.OnEngage = func(name string, c cluster.Cluster) error {
		if prev != nil {
			if err := prev(name, c); err != nil {
				return err
			}
		}
		return f(name, c)
	}
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
// The cluster stays engaged for user (the CR's key) until Release(user).
func (r *Resolver) Resolve(ctx context.Context, user client.ObjectKey, ref *serviceapi.TargetClusterRef) (Target, error) {
	if ref == nil {
		r.Release(user)
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
	t, previous, err := r.resolveRegistered(ctx, user, ref.Name, &s)
	if previous != "" {
		// Outside ref.Name's lock: two locks are never held at once.
		r.releaseIfUnused(previous)
	}
	return t, err
}

// resolveRegistered engages (or reuses) the cluster registered by s and
// records user as its user; previous is another cluster user gave up.
func (r *Resolver) resolveRegistered(ctx context.Context, user client.ObjectKey, name string, s *corev1.Secret) (t Target, previous string, err error) {
	// One engagement per cluster at a time: two workers must not both connect.
	lock := r.lockFor(name)
	lock.Lock()
	defer lock.Unlock()
	r.mu.Lock()
	e := r.engaged[name]
	r.mu.Unlock()
	if e != nil && e.version == s.ResourceVersion {
		return e.target, r.use(user, name), nil
	}
	reg, err := ParseRegistration(s)
	if err != nil {
		r.disengage(name)
		return Target{}, "", fmt.Errorf("target cluster %q: %w", name, err)
	}
	if t, err = r.engage(ctx, name, s.ResourceVersion, reg); err != nil {
		return Target{}, "", err
	}
	return t, r.use(user, name), nil
}

// use records that user resolved the cluster name and returns the other
// cluster it used before, if any. Called under name's lock, so a concurrent
// release of name's last other user either runs before (and the engagement
// is made anew) or sees this user. A failed switch to another cluster
// leaves user recorded against the old one; that cannot happen while
// spec.targetClusterRef is immutable.
func (r *Resolver) use(user client.ObjectKey, name string) (previous string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.users == nil {
		r.users = map[client.ObjectKey]string{}
	}
	if old := r.users[user]; old != name {
		previous = old
	}
	r.users[user] = name
	return previous
}

// Release forgets user (a deleted CR, or one that names no registered
// cluster any more) and disengages its cluster when no other CR uses it.
func (r *Resolver) Release(user client.ObjectKey) {
	r.mu.Lock()
	name, had := r.users[user]
	delete(r.users, user)
	r.mu.Unlock()
	if had {
		r.releaseIfUnused(name)
	}
}

func (r *Resolver) releaseIfUnused(name string) {
	lock := r.lockFor(name)
	lock.Lock()
	defer lock.Unlock()
	r.mu.Lock()
	for _, n := range r.users {
		if n == name {
			r.mu.Unlock()
			return
		}
	}
	r.mu.Unlock()
	r.disengage(name)
}

// Engaged lists the clusters currently engaged, in no particular order.
func (r *Resolver) Engaged() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.engaged))
	for name := range r.engaged {
		names = append(names, name)
	}
	return names
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
	t := New(name, cl)
	t.APIHost, t.HTTP = reg.Config.Host, cl.GetHTTPClient()
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
