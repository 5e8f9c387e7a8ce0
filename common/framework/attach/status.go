package attach

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

// Aggregate sets the child's Ready: True (AllReady) when every one of parts
// is True, else False (NotAllReady) naming the ones that are not.
func Aggregate(conds *[]metav1.Condition, gen int64, allReady string, parts ...string) {
	var missing []string
	for _, t := range parts {
		if !meta.IsStatusConditionTrue(*conds, t) {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		conditions.True(conds, gen, conditions.TypeReady, conditions.ReasonAllReady, allReady)
		return
	}
	conditions.False(conds, gen, conditions.TypeReady, conditions.ReasonNotAllReady, "not True: "+strings.Join(missing, ", "))
}

// AddRequest appends req unless reqs holds it.
func AddRequest(reqs []reconcile.Request, req reconcile.Request) []reconcile.Request {
	for _, r := range reqs {
		if r == req {
			return reqs
		}
	}
	return append(reqs, req)
}
