package admit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// asciiErrors keeps every message plain ASCII whatever the user wrote:
// non-ASCII in a field path or detail becomes \u escapes, and a bad value
// holding any is left out, since the error body would quote it verbatim.
func asciiErrors(errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, len(errs))
	for i, e := range errs {
		c := *e
		c.Field, c.Detail = escapeNonASCII(c.Field), escapeNonASCII(c.Detail)
		if s, ok := c.BadValue.(string); ok && s != escapeNonASCII(s) {
			c.BadValue = field.OmitValueType{}
		}
		out[i] = &c
	}
	return out
}

func asciiWarnings(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = escapeNonASCII(w)
	}
	return out
}

// escapeNonASCII writes each non-ASCII character of s as \uXXXX (\UXXXXXXXX
// beyond the BMP, \xXX for a byte that is not UTF-8); ASCII stays as is.
func escapeNonASCII(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		s = s[size:]
	}
	return b.String()
}
