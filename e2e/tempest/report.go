package tempest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Status is a test's result.
type Status string

// The results Tempest's output names.
const (
	Passed  Status = "passed"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// Result is one test (or a class whose setUpClass skipped or failed).
type Result struct {
	// ID is the test's id without its attributes ([id-...,smoke]), or
	// "setUpClass (<class>)".
	ID     string
	Status Status
	// Reason is a skip's reason.
	Reason string
}

// Report is what one run of Tempest did.
type Report struct {
	Results []Result
}

// resultLine is a line of Tempest's (subunit-trace) output for one test:
// "{0} <id>[attrs] [0.12s] ... ok", "... FAILED", "... SKIPPED: <reason>".
var resultLine = regexp.MustCompile(`^\{\d+\} (.+?)(?: \[[0-9.]+s\])? \.\.\. (ok|FAILED|SKIPPED(?::\s*(.*))?)$`)

// totalLine is one count of the output's Totals section.
var totalLine = regexp.MustCompile(`^ - (Passed|Failed|Skipped): (\d+)$`)

// Parse reads Tempest's output. The counts of the Totals section must match
// the result lines read, so a line this parser misses fails the run
// instead of disappearing from the report.
func Parse(out string) (*Report, error) {
	r := &Report{}
	totals := map[Status]int{}
	sawTotals := false
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if m := resultLine.FindStringSubmatch(line); m != nil {
			res := Result{ID: stripAttrs(m[1]), Status: Passed}
			switch {
			case m[2] == "FAILED":
				res.Status = Failed
			case strings.HasPrefix(m[2], "SKIPPED"):
				res.Status, res.Reason = Skipped, strings.TrimSpace(m[3])
			}
			r.Results = append(r.Results, res)
			continue
		}
		if m := totalLine.FindStringSubmatch(line); m != nil {
			sawTotals = true
			n, _ := strconv.Atoi(m[2])
			totals[Status(strings.ToLower(m[1]))] = n
		}
	}
	if !sawTotals {
		return r, fmt.Errorf("tempest printed no totals (it did not run the tests)")
	}
	for _, s := range []Status{Passed, Failed, Skipped} {
		if got := len(r.With(s)); got != totals[s] {
			return r, fmt.Errorf("tempest counts %d %s, the output has %d such lines", totals[s], s, got)
		}
	}
	return r, nil
}

// stripAttrs drops a test id's attribute list: "test_x[id-1,smoke]" is
// "test_x".
func stripAttrs(id string) string {
	if i := strings.Index(id, "["); i > 0 && strings.HasSuffix(id, "]") && !strings.Contains(id, " ") {
		return id[:i]
	}
	return id
}

// With lists the results of status s, sorted by ID.
func (r *Report) With(s Status) []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Status == s {
			out = append(out, res)
		}
	}
	slices.SortFunc(out, func(a, b Result) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Skip explains a class of skips: every skip whose reason matches Reason
// is accepted for Why.
type Skip struct {
	Reason *regexp.Regexp
	Why    string
}

// Unexplained lists the skips no entry of skips explains.
func (r *Report) Unexplained(skips []Skip) []Result {
	var out []Result
	for _, res := range r.With(Skipped) {
		if !slices.ContainsFunc(skips, func(s Skip) bool { return s.Reason.MatchString(res.Reason) }) {
			out = append(out, res)
		}
	}
	return out
}

// SkipClasses counts the skips per explaining entry (the first that
// matches), in the order of skips; entries that explain none are left out.
func (r *Report) SkipClasses(skips []Skip) []SkipClass {
	counts := make([]int, len(skips))
	for _, res := range r.With(Skipped) {
		if i := slices.IndexFunc(skips, func(s Skip) bool { return s.Reason.MatchString(res.Reason) }); i >= 0 {
			counts[i]++
		}
	}
	var out []SkipClass
	for i, n := range counts {
		if n > 0 {
			out = append(out, SkipClass{Why: skips[i].Why, Count: n})
		}
	}
	return out
}

// SkipClass is one accepted reason and how many skips it covers.
type SkipClass struct {
	Why   string
	Count int
}
