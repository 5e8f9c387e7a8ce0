package admit

import (
	"strings"
	"testing"

	"github.com/robfig/cron/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestCronSchedule(t *testing.T) {
	valid := []string{
		"1 0 * * *", "*/15 * * * *", "0 2 * * MON-FRI", "0 0 1 JAN,jul *", "0-30/10 8-18/2 1-15 */3 sun,Sat",
		"59 23 31 12 6", "0 0 * * 0", "00 05 * * *", "5,10,15 * * * *", "0   3  *  *  *",
		"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
	}
	for _, s := range valid {
		if errs := CronSchedule(field.NewPath("schedule"), s); len(errs) != 0 {
			t.Errorf("%q refused: %v", s, errs)
		}
	}
	invalid := map[string]string{
		"":                    "has 0 fields",
		"* * * *":             "has 4 fields",
		"0 0 * * * *":         "has 6 fields",
		"60 * * * *":          `minute "60" must be 0-59`,
		"* 24 * * *":          `hour "24" must be 0-23`,
		"* * 0 * *":           `day of month "0" must be 1-31`,
		"* * * 13 *":          `month "13" must be 1-12 or JAN-DEC`,
		"* * * * 7":           `day of week "7" must be 0-6 or SUN-SAT`,
		"* * * FOO *":         `month "FOO" must be 1-12 or JAN-DEC`,
		"* * * * MON-BAR":     `day of week "BAR"`,
		"5-1 * * * *":         `range "5-1" runs backwards`,
		"*/0 * * * *":         `step "0" must be a number from 1 to 59`,
		"*/x * * * *":         `step "x"`,
		"5/10 * * * *":        "a step needs * or a range before it",
		"1,,2 * * * *":        `minute "" must be 0-59`,
		"? * * * *":           "character '?' is not allowed",
		"* * * * * ":          "",
		"0 0 * * MON\n":       `character '\n' is not allowed`,
		"@reboot":             "unknown descriptor",
		"@every 1h":           "unknown descriptor",
		"@daily ":             "unknown descriptor",
		"TZ=UTC 0 0 * * *":    "character '=' is not allowed",
		"-1 * * * *":          `minute "" must be 0-59`,
		"+5 * * * *":          "character '+' is not allowed",
		"0 0 * * L":           `day of week "L"`,
		"\u00e9 * * * *":      `character '\u00e9' is not allowed`,
		"99999999999 * * * *": `minute "99999999999" must be 0-59`,
	}
	for s, want := range invalid {
		errs := CronSchedule(field.NewPath("schedule"), s)
		if want == "" {
			if len(errs) != 0 {
				t.Errorf("%q refused: %v", s, errs)
			}
			continue
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Detail, want) || !strings.HasPrefix(errs[0].Detail, cronSyntax) {
			t.Errorf("%q: errors %v, want one mentioning %q", s, errs, want)
		}
	}
}

// What CronSchedule admits the CronJob API accepts: Kubernetes parses the
// schedule with robfig/cron's standard parser.
func FuzzCronScheduleWithinCronJobAPI(f *testing.F) {
	for _, s := range []string{"1 0 * * *", "0-30/10 8-18/2 1-15 */3 sun,Sat", "@daily", "* * * * 7", "5/10 * * * *", "? * * * *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(CronSchedule(field.NewPath("schedule"), s)) > 0 {
			return
		}
		if _, err := cron.ParseStandard(s); err != nil {
			t.Fatalf("%q admitted but the CronJob API's parser refuses it: %v", s, err)
		}
	})
}
