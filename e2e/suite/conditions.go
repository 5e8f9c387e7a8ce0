package suite

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/poll"
)

// Conditions describes every condition on one line, for the error of a wait:
// a wait that names them all sees any of them move (poll.Until's progress).
func Conditions(conds []metav1.Condition) string {
	all := make([]string, 0, len(conds))
	for _, c := range conds {
		all = append(all, fmt.Sprintf("%s=%s/%s (%s)", c.Type, c.Status, c.Reason, c.Message))
	}
	return strings.Join(all, "; ")
}

// WaitCondition waits until the object at key has the condition typ with
// status (and reason, when given) for its current generation, reading it
// through c, and returns the condition. conditions reads the object's.
func WaitCondition[T any, P interface {
	*T
	client.Object
}](t *testing.T, c client.Client, key client.ObjectKey, conditions func(P) []metav1.Condition,
	typ string, status metav1.ConditionStatus, reason string, timeout time.Duration) *metav1.Condition {
	t.Helper()
	var found *metav1.Condition
	poll.Until(t, timeout, func() error {
		obj := P(new(T))
		if err := c.Get(t.Context(), key, obj); err != nil {
			return err
		}
		conds := conditions(obj)
		got := meta.FindStatusCondition(conds, typ)
		if got == nil || got.Status != status || got.ObservedGeneration != obj.GetGeneration() || (reason != "" && got.Reason != reason) {
			return fmt.Errorf("%s %s: want %s=%s %s at generation %d; have %s", reflect.TypeFor[T]().Name(), key, typ, status, reason, obj.GetGeneration(), Conditions(conds))
		}
		found = got
		return nil
	})
	return found
}
