package testenv

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WriteConditions writes header, then one indented line per condition: the
// dump a suite prints when a wait fails.
func WriteConditions(w *strings.Builder, header string, conds []metav1.Condition) {
	fmt.Fprintln(w, header)
	for _, c := range conds {
		fmt.Fprintf(w, "  %s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
}
