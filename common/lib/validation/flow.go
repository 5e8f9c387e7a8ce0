package validation

import (
	"regexp"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// plainScalar is what YAML reads back as the same string without quotes.
var plainScalar = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`)

// yamlKeywords read back as booleans or null when unquoted (YAML 1.1 and 1.2).
var yamlKeywords = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true}

// flowScalar renders s as a YAML scalar, double-quoted with ASCII escapes
// unless it is plain, so a message stays ASCII whatever the user wrote.
func flowScalar(s string) string {
	if plainScalar.MatchString(s) && !yamlKeywords[strings.ToLower(s)] {
		return s
	}
	return strconv.QuoteToASCII(s)
}

// flowMap renders m as a YAML flow mapping with sorted keys.
func flowMap(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, flowScalar(k)+": "+flowScalar(m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// describeSelector renders a label selector in YAML flow style for a message.
func describeSelector(ls *metav1.LabelSelector) string {
	if ls == nil {
		return "no labelSelector"
	}
	out := "matchLabels " + flowMap(ls.MatchLabels)
	if len(ls.MatchExpressions) == 0 {
		return out
	}
	reqs := make([]string, 0, len(ls.MatchExpressions))
	for _, r := range ls.MatchExpressions {
		req := "{key: " + flowScalar(r.Key) + ", operator: " + flowScalar(string(r.Operator))
		if len(r.Values) > 0 {
			vals := make([]string, 0, len(r.Values))
			for _, v := range r.Values {
				vals = append(vals, flowScalar(v))
			}
			req += ", values: [" + strings.Join(vals, ", ") + "]"
		}
		reqs = append(reqs, req+"}")
	}
	return out + ", matchExpressions [" + strings.Join(reqs, ", ") + "]"
}
