package docscheck

import (
	"strconv"
	"strings"
	"unicode"
)

// Lines returns the lines of a Markdown document outside fenced code blocks.
func Lines(doc string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return out
}

// Heading returns the text of an ATX heading line.
func Heading(line string) (string, bool) {
	level := len(line) - len(strings.TrimLeft(line, "#"))
	if level == 0 || level > 6 || !strings.HasPrefix(line[level:], " ") {
		return "", false
	}
	return strings.TrimSpace(line[level:]), true
}

// Sections maps the text of each backticked-only heading (backticks
// removed) to the text up to the next heading, skipping fenced code.
func Sections(doc string) map[string]string {
	out := map[string]string{}
	current := ""
	var body strings.Builder
	flush := func() {
		if current != "" {
			out[current] = body.String()
		}
		body.Reset()
	}
	for _, line := range Lines(doc) {
		if text, ok := Heading(line); ok {
			flush()
			current = ""
			if strings.HasPrefix(text, "`") && strings.HasSuffix(text, "`") && strings.Count(text, "`") == 2 {
				current = strings.Trim(text, "`")
			}
			continue
		}
		body.WriteString(line + "\n")
	}
	flush()
	return out
}

// Anchors are the fragment identifiers GitHub derives from a page's
// headings: lower case, punctuation dropped, spaces as hyphens, repeats
// numbered.
func Anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range Lines(doc) {
		text, ok := Heading(line)
		if !ok {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}
