package attach

import (
	"fmt"
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

// Split sorts the children by their condition ready: ok are those where it
// is True for their current generation; stale those where it is True for an
// older one (their controller has not checked the new spec yet: a changed
// server URL, a flipped default); pending the others. A parent keeps its last
// projection while any child is stale, since projecting without it drops it
// for a moment and projecting with it trusts what nobody checked. It never
// looks at a child's aggregate Ready, which waits on the parent's projection.
func Split[T any, P Child[T]](items []T, ready string) (ok []T, pending, stale []string) {
	for i := range items {
		c := meta.FindStatusCondition(P(&items[i]).ChildConditions(), ready)
		switch {
		case c == nil || c.Status != metav1.ConditionTrue:
			pending = append(pending, P(&items[i]).GetName())
		case c.ObservedGeneration != P(&items[i]).GetGeneration():
			stale = append(stale, P(&items[i]).GetName())
		default:
			ok = append(ok, items[i])
		}
	}
	return ok, pending, stale
}

// StaleMessage says which children the parent waits on before projecting.
func StaleMessage(kind string, stale []string) string {
	return fmt.Sprintf("waiting for the %s controller to check the changed spec of %s; keeping the last projection", kind, strings.Join(stale, ", "))
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
