package attach

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Child is a pointer to an attached CR with its conditions.
type Child[T any] interface {
	*T
	client.Object
	// ChildConditions are the child's status conditions.
	ChildConditions() []metav1.Condition
}

// Live drops the deleting children and sorts the rest by name, so that what
// the parent renders from them (and its content hash) is stable across passes.
func Live[T any, P Child[T]](items []T) []T {
	out := slices.DeleteFunc(items, func(c T) bool { return !P(&c).GetDeletionTimestamp().IsZero() })
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(P(&a).GetName(), P(&b).GetName()) })
	return out
}

// Split keeps the children whose condition ready is True for their current
// generation; the names of the others are pending. A True stamped for an
// older generation is stale: the child's controller has not checked the
// new spec yet (a changed server URL could otherwise be projected, or
// opened in egress, before anyone authenticated against it). It never looks
// at a child's aggregate Ready, which waits on the parent's projection.
func Split[T any, P Child[T]](items []T, ready string) (ok []T, pending []string) {
	for i := range items {
		c := meta.FindStatusCondition(P(&items[i]).ChildConditions(), ready)
		if c != nil && c.Status == metav1.ConditionTrue && c.ObservedGeneration == P(&items[i]).GetGeneration() {
			ok = append(ok, items[i])
		} else {
			pending = append(pending, P(&items[i]).GetName())
		}
	}
	return ok, pending
}

// Names are the children's names in order.
func Names[T any, P Child[T]](items []T) []string {
	out := make([]string, 0, len(items))
	for i := range items {
		out = append(out, P(&items[i]).GetName())
	}
	return out
}

// ByName indexes the children by name.
func ByName[T any, P Child[T]](items []T) map[string]P {
	out := make(map[string]P, len(items))
	for i := range items {
		out[P(&items[i]).GetName()] = &items[i]
	}
	return out
}
