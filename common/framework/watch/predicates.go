// Package watch is the watch set every service controller shares: the field
// indexes over the CR's references, the maps from a watched object to the
// CRs it concerns, on the management cluster and on target clusters, and the
// event predicates that keep a pass per real change.
package watch

import (
	"maps"

	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"

	"github.com/c5c3/openstack-operators/common/framework/dbsync"
)

// DropResyncs drops update events over an unchanged object (same
// resourceVersion); creates, deletes and real updates pass. Every informer
// of a controller resyncs on its own: each period it delivers every cached
// object again as an update whose old and new objects are the same (a relist
// over unchanged objects looks the same). A controller watching k kinds
// besides its CR would run k passes per CR per resync period, each a full
// pass over unchanged inputs. Put DropResyncs on every watch of a service
// controller but its CR's, and OR Resyncs into the CR's: one pass per CR per
// period, which is what the resync is for.
func DropResyncs() predicate.Predicate {
	return predicate.ResourceVersionChangedPredicate{}
}

// Resyncs passes only update events over an unchanged object: the resync.
// OR it into the predicate of the CR's own watch, whose other predicates drop
// updates that change nothing the controller reads (see DropResyncs).
func Resyncs() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return false },
		DeleteFunc:  func(event.DeleteEvent) bool { return false },
		GenericFunc: func(event.GenericEvent) bool { return false },
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectOld != nil && e.ObjectNew != nil &&
				e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion()
		},
	}
}

// CREvents is the predicate of the CR's own watch: the changes
// SpecOrMetadataChanged passes, and the periodic resync, which every other
// watch drops (DropResyncs), so a resync period costs one pass per CR rather
// than one per watched kind.
func CREvents() predicate.Predicate {
	return predicate.Or(SpecOrMetadataChanged(), Resyncs())
}

// SpecOrMetadataChanged drops status-only updates: it passes generation,
// label and annotation changes, and entry into Terminating. The operator's
// own record of the last Job it counted (dbsync.UIDAnnotation) is no news:
// the pass that patched it goes on with the patched object, so the update
// it causes would only cost a pass over unchanged inputs.
func SpecOrMetadataChanged() predicate.Predicate {
	return predicate.Funcs{UpdateFunc: func(e event.UpdateEvent) bool {
		o, n := e.ObjectOld, e.ObjectNew
		return o.GetGeneration() != n.GetGeneration() ||
			!maps.Equal(o.GetLabels(), n.GetLabels()) ||
			annotationsChanged(o.GetAnnotations(), n.GetAnnotations()) ||
			o.GetDeletionTimestamp().IsZero() != n.GetDeletionTimestamp().IsZero()
	}}
}

// annotationsChanged compares two annotation maps but for the Job records.
func annotationsChanged(o, n map[string]string) bool {
	for k, v := range n {
		if ov, ok := o[k]; (!ok || ov != v) && !dbsync.IsUIDAnnotation(k) {
			return true
		}
	}
	for k := range o {
		if _, ok := n[k]; !ok && !dbsync.IsUIDAnnotation(k) {
			return true
		}
	}
	return false
}
