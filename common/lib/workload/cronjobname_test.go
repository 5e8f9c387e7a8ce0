package workload

import (
	"strings"
	"testing"
)

func TestCronJobName(t *testing.T) {
	const suffix = "-db-clean"
	tests := []struct {
		name, instance, want string
	}{
		{"short", "barbican", "barbican-db-clean"},
		{"exactly at the limit", strings.Repeat("a", 43), strings.Repeat("a", 43) + suffix},
		{"one over the limit", strings.Repeat("a", 44), strings.Repeat("a", 34) + "-16849877" + suffix},
		{"cut ends in a dash", strings.Repeat("b", 33) + "-" + strings.Repeat("c", 20), strings.Repeat("b", 33) + "-c27031cc" + suffix},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CronJobName(tt.instance, suffix)
			if len(got) > CronJobNameLimit || !strings.HasSuffix(got, suffix) {
				t.Errorf("CronJobName = %q (%d chars), want ≤ %d ending in %s", got, len(got), CronJobNameLimit, suffix)
			}
			if got != tt.want {
				t.Errorf("CronJobName = %q, want %q", got, tt.want)
			}
			if strings.Contains(got, "--") || strings.Contains(got, ".-") {
				t.Errorf("CronJobName = %q keeps a trailing separator before the hash", got)
			}
		})
	}
	a, b := CronJobName(strings.Repeat("x", 50)+"1", suffix), CronJobName(strings.Repeat("x", 50)+"2", suffix)
	if a == b {
		t.Errorf("two long names share the CronJob name %q", a)
	}
}
