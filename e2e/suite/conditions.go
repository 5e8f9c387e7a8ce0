package suite

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
