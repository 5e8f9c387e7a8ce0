package observability

import (
	"slices"
	"strings"
)

// notMetric are the PromQL words that are not metric names when they stand
// without a parenthesis after them.
var notMetric = map[string]bool{
	"bool": true, "and": true, "or": true, "unless": true, "offset": true, "atan2": true,
	"inf": true, "nan": true, "group_left": true, "group_right": true,
}

// aggregations may put their by/without clause before the parenthesis.
var aggregations = map[string]bool{
	"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
	"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
	"limitk": true, "limit_ratio": true,
}

// labelLists are the keywords followed by a parenthesised list of labels.
var labelLists = map[string]bool{
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
}

// MetricNames returns the metric names a PromQL expression selects, sorted
// and once each: identifiers that are not functions, aggregations,
// keywords, label lists, label matchers, strings or range/offset durations.
// A Grafana variable ($__rate_interval, $namespace) may stand where PromQL
// takes a duration or a label value.
func MetricNames(expr string) []string {
	seen := map[string]bool{}
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipString(expr, i)
		case c == '{':
			i = skipGroup(expr, i, '{', '}')
		case c == '[':
			i = skipGroup(expr, i, '[', ']')
		case isIdentStart(c):
			j := i
			for j < len(expr) && isIdent(expr[j]) {
				j++
			}
			word, next := expr[i:j], nextNonSpace(expr, j)
			lower := strings.ToLower(word)
			switch {
			case labelLists[lower] && next < len(expr) && expr[next] == '(':
				j = skipGroup(expr, next, '(', ')')
			case next < len(expr) && expr[next] == '(',
				aggregations[lower] && (hasWordAt(expr, next, "by") || hasWordAt(expr, next, "without")):
				// a function or an aggregation
			case notMetric[lower] || labelLists[lower]:
			default:
				seen[word] = true
			}
			i = j
		case c >= '0' && c <= '9' || c == '.':
			// a number or a duration (5m, 1e3): letters belong to it
			for i < len(expr) && (isIdent(expr[i]) || expr[i] == '.') {
				i++
			}
		default:
			i++
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// hasWordAt says whether the identifier at i is word.
func hasWordAt(s string, i int, word string) bool {
	j := i + len(word)
	return j <= len(s) && strings.EqualFold(s[i:j], word) && (j == len(s) || !isIdent(s[j]))
}

func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdent(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func nextNonSpace(s string, i int) int {
	for i < len(s) && strings.ContainsRune(" \t\r\n", rune(s[i])) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at i.
func skipString(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		if s[i] == '\\' && q != '`' {
			i++
			continue
		}
		if s[i] == q {
			return i + 1
		}
	}
	return len(s)
}

// skipGroup returns the index after the group opened at i, skipping
// strings and nested groups of the same kind.
func skipGroup(s string, i int, open, close byte) int {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '"', '\'', '`':
			i = skipString(s, i)
			continue
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(s)
}
