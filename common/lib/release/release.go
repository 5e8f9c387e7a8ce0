// Package release parses OpenStack release identifiers of the form
// YYYY.N[-suffix] and gates transitions between them.
package release

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// minYear is the lowest accepted year; it rejects date-like or short
// numbers that happen to contain a dot.
const minYear = 2010

// Release is a parsed OpenStack release such as 2025.2 or 2025.2-p1.
type Release struct {
	Year   int
	Minor  int
	Suffix string
}

// Parse accepts YYYY.N[-suffix]: the suffix is everything after the first
// '-', the base holds exactly one '.', the year has four digits and is at
// least 2010, and N is 1 or 2.
func Parse(s string) (Release, error) {
	base, suffix, hasSuffix := strings.Cut(s, "-")
	if hasSuffix && suffix == "" {
		return Release{}, invalidf(s, "empty suffix after '-'")
	}
	yearStr, minorStr, ok := strings.Cut(base, ".")
	if !ok {
		return Release{}, invalidf(s, "want YYYY.N")
	}
	if strings.Contains(minorStr, ".") {
		return Release{}, invalidf(s, "more than one '.' in %q", base)
	}
	if len(yearStr) != 4 || !allDigits(yearStr) {
		return Release{}, invalidf(s, "year must be four digits")
	}
	// Four ASCII digits always fit an int, so the error is unreachable.
	year, _ := strconv.Atoi(yearStr)
	if year < minYear {
		return Release{}, invalidf(s, "year must be >= %d", minYear)
	}
	var minor int
	switch minorStr {
	case "1":
		minor = 1
	case "2":
		minor = 2
	default:
		return Release{}, invalidf(s, "minor must be 1 or 2")
	}
	return Release{Year: year, Minor: minor, Suffix: suffix}, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Base returns the YYYY.N part without any suffix.
func (r Release) Base() string {
	return fmt.Sprintf("%04d.%d", r.Year, r.Minor)
}

// String returns the release in its parsed form, suffix included.
func (r Release) String() string {
	if r.Suffix == "" {
		return r.Base()
	}
	return r.Base() + "-" + r.Suffix
}

// Next returns the only release an upgrade from r may target.
func (r Release) Next() Release {
	if r.Minor == 1 {
		return Release{Year: r.Year, Minor: 2}
	}
	return Release{Year: r.Year + 1, Minor: 1}
}

// Compare orders releases by base only (-1, 0, +1); suffixes name builds of
// the same release and never make one release newer than another.
func (r Release) Compare(o Release) int {
	if c := cmp.Compare(r.Year, o.Year); c != 0 {
		return c
	}
	return cmp.Compare(r.Minor, o.Minor)
}

// ErrInvalid is wrapped by every Parse error so callers can test for it.
var ErrInvalid = errors.New("invalid release")

func invalidf(s, format string, args ...any) error {
	return fmt.Errorf("%w %q: %s", ErrInvalid, s, fmt.Sprintf(format, args...))
}
