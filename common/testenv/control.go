package testenv

import "strings"

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
