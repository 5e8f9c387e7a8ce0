package admit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// cronDescriptors are the @ shorthands of standard cron that run on a
// clock; @reboot has no meaning for a CronJob and @every is not cron.
var cronDescriptors = []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

// cronField is one of the five fields: its bounds and, for month and day of
// week, the three-letter names that may stand for a number.
type cronField struct {
	name     string
	min, max int
	names    []string // names[i] stands for min+i
}

var cronFields = []cronField{
	{name: "minute", max: 59},
	{name: "hour", max: 23},
	{name: "day of month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	// 7 for Sunday is left out: the CronJob API's parser refuses it.
	{name: "day of week", max: 6, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}

const cronSyntax = "must be standard cron: five fields (minute hour day-of-month month day-of-week) or one of " +
	"@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly"

// CronSchedule refuses what is not standard cron (fields: comma lists of *,
// v or a-b, each optionally /step; JAN, MON names). It admits a subset of the
// CronJob API's parser, so an admitted schedule never fails the CronJob write.
func CronSchedule(p *field.Path, s string) field.ErrorList {
	if err := parseCron(s); err != "" {
		return field.ErrorList{field.Invalid(p, s, cronSyntax+"; "+err)}
	}
	return nil
}

// parseCron returns why s is not standard cron, or "".
func parseCron(s string) string {
	if strings.HasPrefix(s, "@") {
		if slices.Contains(cronDescriptors, s) {
			return ""
		}
		return "unknown descriptor"
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789*,-/ ", r) && !isLetter(r) }); i >= 0 {
		return fmt.Sprintf("character %s is not allowed", strconv.QuoteRuneToASCII([]rune(s[i:])[0]))
	}
	fields := strings.Fields(s)
	if len(fields) != len(cronFields) {
		return fmt.Sprintf("has %d fields", len(fields))
	}
	for i, f := range fields {
		if err := cronFields[i].parse(f); err != "" {
			return cronFields[i].name + " " + err
		}
	}
	return ""
}

func isLetter(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

// parse checks one field: a comma list of items.
func (c cronField) parse(f string) string {
	for item := range strings.SplitSeq(f, ",") {
		if err := c.item(item); err != "" {
			return err
		}
	}
	return ""
}

// item checks *, v or a-b, each optionally followed by /step.
func (c cronField) item(item string) string {
	span, step, stepped := strings.Cut(item, "/")
	if stepped {
		n, err := strconv.Atoi(step)
		if err != nil || strings.ContainsAny(step, "+-") || n < 1 || n > c.max {
			return fmt.Sprintf("step %q must be a number from 1 to %d", step, c.max)
		}
	}
	if span == "*" {
		return ""
	}
	lo, hi, isRange := strings.Cut(span, "-")
	if !isRange && stepped {
		return fmt.Sprintf("%q: a step needs * or a range before it", item)
	}
	a, err := c.value(lo)
	if err != "" {
		return err
	}
	if !isRange {
		return ""
	}
	b, err := c.value(hi)
	if err != "" {
		return err
	}
	if a > b {
		return fmt.Sprintf("range %q runs backwards", span)
	}
	return ""
}

// value parses a number within the bounds, or a name where the field has names.
func (c cronField) value(v string) (int, string) {
	if i := slices.Index(c.names, strings.ToUpper(v)); i >= 0 {
		return c.min + i, ""
	}
	n, err := strconv.Atoi(v)
	if err != nil || strings.ContainsAny(v, "+-") || n < c.min || n > c.max {
		if len(c.names) > 0 {
			return 0, fmt.Sprintf("%q must be %d-%d or %s-%s", v, c.min, c.max, c.names[0], c.names[len(c.names)-1])
		}
		return 0, fmt.Sprintf("%q must be %d-%d", v, c.min, c.max)
	}
	return n, ""
}
