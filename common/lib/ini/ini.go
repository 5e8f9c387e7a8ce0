// Package ini renders and parses the INI dialect read by oslo.config.
//
// Render refuses anything oslo.config's iniparser would read back
// differently, because the operator writes user-supplied values verbatim
// and a stray newline or quote would silently change the configuration.
package ini

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// File maps section -> key -> value.
type File map[string]map[string]string

// ErrUnsafe is wrapped by every Render refusal.
var ErrUnsafe = errors.New("cannot be rendered safely")

// Render writes f with sections and keys in byte order, so DEFAULT sorts
// before the lower-case sections. Errors name the section and key but never
// the value, which may be a secret.
func Render(f File) ([]byte, error) {
	sections := sortedKeys(f)
	for _, s := range sections {
		if err := checkSection(s); err != nil {
			return nil, fmt.Errorf("section %q: %w", s, err)
		}
		for k, v := range f[s] {
			if err := checkKey(k); err != nil {
				return nil, fmt.Errorf("section %q key %q: %w", s, k, err)
			}
			if err := checkValue(v); err != nil {
				return nil, fmt.Errorf("section %q key %q: value %w", s, k, err)
			}
		}
	}

	var b bytes.Buffer
	for i, s := range sections {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("[" + s + "]\n")
		for _, k := range sortedKeys(f[s]) {
			b.WriteString(k)
			// An empty value is written as "key =" to avoid trailing blanks.
			if v := f[s][k]; v != "" {
				b.WriteString(" = " + v + "\n")
			} else {
				b.WriteString(" =\n")
			}
		}
	}
	return b.Bytes(), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkCommon rejects what no field may contain: control characters would
// split or corrupt lines, and invalid UTF-8 fails Python's decoder.
func checkCommon(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: not valid UTF-8", ErrUnsafe)
	}
	if strings.ContainsFunc(s, isControl) {
		return fmt.Errorf("%w: contains a control character", ErrUnsafe)
	}
	return nil
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f
}

// isSpace matches Python's str.isspace, which oslo's strip calls rely on:
// Unicode White_Space plus the information separators U+001C..U+001F.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// hasOuterSpace reports leading or trailing whitespace, which oslo strips.
func hasOuterSpace(s string) bool {
	return strings.TrimFunc(s, isSpace) != s
}

func checkSection(s string) error {
	if err := checkCommon(s); err != nil {
		return err
	}
	switch {
	case s == "":
		return fmt.Errorf("%w: empty section name", ErrUnsafe)
	case strings.Contains(s, "]"):
		return fmt.Errorf("%w: section name contains ']'", ErrUnsafe)
	case hasOuterSpace(s):
		return fmt.Errorf("%w: section name has leading or trailing whitespace", ErrUnsafe)
	}
	return nil
}

func checkKey(k string) error {
	if err := checkCommon(k); err != nil {
		return err
	}
	switch {
	case k == "":
		return fmt.Errorf("%w: empty key", ErrUnsafe)
	case strings.ContainsAny(k, "=:"):
		return fmt.Errorf("%w: key contains '=' or ':'", ErrUnsafe)
	case strings.ContainsAny(k[:1], "#;["):
		// These would turn the line into a comment or a section header.
		return fmt.Errorf("%w: key starts with '#', ';' or '['", ErrUnsafe)
	case hasOuterSpace(k):
		return fmt.Errorf("%w: key has leading or trailing whitespace", ErrUnsafe)
	}
	return nil
}

func checkValue(v string) error {
	if err := checkCommon(v); err != nil {
		return err
	}
	switch {
	case hasOuterSpace(v):
		return fmt.Errorf("%w: has leading or trailing whitespace", ErrUnsafe)
	case quoted(v):
		return fmt.Errorf("%w: is wrapped in matching quotes, which oslo.config strips", ErrUnsafe)
	}
	return nil
}

// quoted mirrors oslo's test: first and last character equal and a quote.
// A lone quote counts too, since oslo turns it into an empty string.
func quoted(v string) bool {
	return v != "" && (v[0] == '"' || v[0] == '\'') && v[0] == v[len(v)-1]
}

// Parse reads b the way oslo.config's iniparser does, so tests can verify
// that Render output means what was intended.
func Parse(b []byte) (File, error) {
	f := File{}
	var (
		section string
		inSect  bool
		key     string
		value   []string
		haveKey bool
	)
	flush := func() {
		if haveKey {
			f[section][key] = strings.Join(value, "\n")
			haveKey, key, value = false, "", nil
		}
	}
	for i, raw := range splitLines(string(b)) {
		lineno := i + 1
		line := strings.TrimRightFunc(raw, isSpace)
		switch {
		case line == "":
			// A blank line ends a multi-line value.
			flush()
		case line[0] == ' ' || line[0] == '\t':
			if !haveKey {
				return nil, fmt.Errorf("line %d: continuation line without a key", lineno)
			}
			value = append(value, strings.TrimLeftFunc(line, isSpace))
		case line[0] == '[':
			flush()
			if !strings.HasSuffix(line, "]") {
				return nil, fmt.Errorf("line %d: section header without closing ']'", lineno)
			}
			if len(line) <= 2 {
				return nil, fmt.Errorf("line %d: empty section name", lineno)
			}
			section, inSect = line[1:len(line)-1], true
			if f[section] == nil {
				f[section] = map[string]string{}
			}
		case line[0] == '#' || line[0] == ';':
			flush()
		default:
			flush()
			k, v, err := splitKeyValue(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", lineno, err)
			}
			if !inSect {
				return nil, fmt.Errorf("line %d: key %q outside a section", lineno, k)
			}
			key, value, haveKey = k, []string{v}, true
		}
	}
	flush()
	return f, nil
}

// splitLines splits like Python's universal-newline file iteration: on
// "\r\n", "\r" and "\n" only.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// splitKeyValue splits on whichever of '=' or ':' comes first, trims both
// sides and strips one pair of matching surrounding quotes from the value.
func splitKeyValue(line string) (string, string, error) {
	i := strings.IndexAny(line, "=:")
	if i < 0 {
		return "", "", errors.New("line is neither a section, a comment nor an assignment")
	}
	k := strings.TrimFunc(line[:i], isSpace)
	v := strings.TrimFunc(line[i+1:], isSpace)
	if k == "" {
		return "", "", errors.New("empty key")
	}
	if quoted(v) {
		if len(v) == 1 {
			v = ""
		} else {
			v = v[1 : len(v)-1]
		}
	}
	return k, v, nil
}
