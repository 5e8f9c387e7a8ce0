package testenv

import (
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/lib/ini"
)

// HasControl reports a control character other than the line breaks a
// renderer writes itself: what the fuzz targets of the config renderers
// assert never reaches a rendered file.
func HasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 && r != '\n') || r == 0x7f })
}

// AnyControl reports a control character, line breaks included, in any
// input: a fuzz input carrying one must be refused or skipped.
func AnyControl(ss ...string) bool {
	for _, s := range ss {
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return true
		}
	}
	return false
}

// FuzzedConfig checks a config renderer's answer to fuzzed input: an error
// comes with no data; data only when no input holds a control character,
// and then none in any rendered file; the file conf parses and reads back
// [section] key as value. It returns the parsed file, nil after an error.
func FuzzedConfig(t *testing.T, data map[string]string, err error, conf, section, key, value string, others ...string) ini.File {
	t.Helper()
	if err != nil {
		if data != nil {
			t.Fatalf("error %v with data", err)
		}
		return nil
	}
	if AnyControl(append([]string{section, key, value}, others...)...) {
		t.Fatalf("rendered although an input has a control character")
	}
	for k, v := range data {
		if HasControl(v) || strings.Contains(v, "\r") {
			t.Fatalf("%s holds a control character:\n%q", k, v)
		}
	}
	parsed, err := ini.Parse([]byte(data[conf]))
	if err != nil {
		t.Fatalf("%s does not parse: %v", conf, err)
	}
	if got := parsed[section][key]; got != value {
		t.Fatalf("[%s] %s reads back as %q, want %q", section, key, got, value)
	}
	return parsed
}

// ParseINI parses a renderer's INI output; a render or parse error fails
// the test.
func ParseINI(t *testing.T, s string, err error) ini.File {
	t.Helper()
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	f, err := ini.Parse([]byte(s))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return f
}
