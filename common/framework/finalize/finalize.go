// Package finalize is the deletion flow of a service CR: the service
// finalizer tears down the MariaDB CRs, the remote-children finalizer deletes
// what a target cluster holds, and an unreachable target is abandoned after a
// grace period instead of leaving the CR in Terminating forever.
package finalize

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/mariadb"
	"github.com/c5c3/openstack-operators/common/framework/pass"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

// Defaults of the flow.
const (
	DefaultAbandonGrace = 5 * time.Minute
	HoldRequeue         = 30 * time.Second
	UnresolvedRequeue   = 15 * time.Second
)

// Events of the flow.
const (
	EventFinalizingDatabase      = "FinalizingDatabase"
	EventDatabaseFinalized       = "DatabaseFinalized"
	EventRemoteChildrenAbandoned = "RemoteChildrenAbandoned"
)

// Flow runs deletion for one operator.
type Flow struct {
	// Client writes the CR (finalizers, status) on the management cluster.
	Client    client.Client
	Recorder  events.EventRecorder
	Finalizer string
	// Kind labels remote children (owner-kind).
	Kind string
	// AbandonGrace is how long an unresolvable target is waited for, both since
	// deletionTimestamp and since this process first failed to resolve it.
	AbandonGrace time.Duration
	// OnRelease drops the CR's metric series and probe cache entry.
	OnRelease func(key types.NamespacedName)
	// RemoteKinds are the projected kinds deleted from a target cluster.
	RemoteKinds []RemoteKind
	// SubConditions feed the status write of a hold.
	SubConditions []string
	Now           func() time.Time

	mu           sync.Mutex
	firstFailure map[types.UID]time.Time
}

// Run handles a CR in Terminating. resolve returns the children's cluster.
func (f *Flow) Run(ctx context.Context, obj pass.Object, remote bool, resolve func(context.Context) (targetcluster.Target, error)) (ctrl.Result, error) {
	target, err := resolve(ctx)
	if err != nil && !remote {
		return ctrl.Result{}, fmt.Errorf("resolving cluster for deletion: %w", err)
	}
	abandoned := false
	if err != nil {
		if !f.pastGrace(obj) {
			return f.hold(ctx, obj, err)
		}
		abandoned = true
	}
	if controllerutil.ContainsFinalizer(obj, f.Finalizer) {
		if !abandoned {
			owner := apply.Owner{Object: obj, Kind: f.Kind, Remote: target.Remote()}
			live, cerr := mariadb.Cleanup(ctx, target.Client, target.Reader, owner, obj.GetNamespace(), obj.GetName())
			switch {
			case cerr != nil && !remote:
				return ctrl.Result{}, cerr
			case cerr != nil && !f.pastGrace(obj):
				// An engaged target that stopped answering counts like an
				// unresolvable one: hold within the grace, then abandon.
				return f.hold(ctx, obj, cerr)
			case cerr != nil:
				abandoned, err = true, cerr
			case live:
				f.Recorder.Eventf(obj, nil, corev1.EventTypeNormal, EventFinalizingDatabase, "Finalize",
					"deleting MariaDB Database, User and Grant %s", obj.GetName())
				return ctrl.Result{RequeueAfter: HoldRequeue}, nil
			default:
				f.Recorder.Eventf(obj, nil, corev1.EventTypeNormal, EventDatabaseFinalized, "Finalize", "no MariaDB CRs remain; releasing the finalizer")
			}
		}
		if abandoned {
			f.warnAbandoned(obj, err)
		}
		if err := f.release(ctx, obj, f.Finalizer); err != nil {
			return ctrl.Result{}, err
		}
		if f.OnRelease != nil {
			f.OnRelease(types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()})
		}
	}
	if controllerutil.ContainsFinalizer(obj, targetcluster.RemoteChildrenFinalizer) {
		if !abandoned {
			if derr := DeleteRemoteChildren(ctx, target, f.RemoteKinds, f.Kind, obj); derr != nil {
				if !f.pastGrace(obj) {
					return f.hold(ctx, obj, derr)
				}
				abandoned, err = true, derr
			}
		}
		if abandoned {
			f.warnAbandoned(obj, err)
		}
		if err := f.release(ctx, obj, targetcluster.RemoteChildrenFinalizer); err != nil {
			return ctrl.Result{}, err
		}
	}
	f.forget(obj.GetUID())
	return ctrl.Result{}, nil
}

// hold keeps the CR in Terminating while its target cluster cannot be reached,
// reporting why on SecretsReady.
func (f *Flow) hold(ctx context.Context, obj pass.Object, cause error) (ctrl.Result, error) {
	before := obj.StatusSnapshot()
	conditions.False(&obj.ServiceStatus().Conditions, obj.GetGeneration(), conditions.TypeSecretsReady,
		conditions.ReasonTargetClusterUnavailable, cause.Error())
	return ctrl.Result{RequeueAfter: UnresolvedRequeue}, pass.PersistStatus(ctx, f.Client, obj, before, f.SubConditions)
}

func (f *Flow) warnAbandoned(obj client.Object, cause error) {
	f.Recorder.Eventf(obj, nil, corev1.EventTypeWarning, EventRemoteChildrenAbandoned, "Finalize",
		"target cluster unreachable past %s; children (Deployment, Service, ConfigMaps, Secrets, Jobs, MariaDB CRs) stay behind on it: %v",
		f.grace(), cause)
}

func (f *Flow) release(ctx context.Context, obj client.Object, finalizer string) error {
	if !controllerutil.RemoveFinalizer(obj, finalizer) {
		return nil
	}
	if err := f.Client.Update(ctx, obj); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("releasing finalizer %s: %w", finalizer, err)
	}
	return nil
}

// pastGrace reports whether both windows have passed: since deletionTimestamp
// and since this process first failed to resolve the target.
func (f *Flow) pastGrace(obj client.Object) bool {
	now := f.now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.firstFailure == nil {
		f.firstFailure = map[types.UID]time.Time{}
	}
	first, ok := f.firstFailure[obj.GetUID()]
	if !ok {
		first = now
		f.firstFailure[obj.GetUID()] = now
	}
	return now.Sub(obj.GetDeletionTimestamp().Time) >= f.grace() && now.Sub(first) >= f.grace()
}

func (f *Flow) forget(uid types.UID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.firstFailure, uid)
}

func (f *Flow) grace() time.Duration {
	if f.AbandonGrace > 0 {
		return f.AbandonGrace
	}
	return DefaultAbandonGrace
}

func (f *Flow) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}
