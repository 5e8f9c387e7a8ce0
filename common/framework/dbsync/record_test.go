package dbsync

import "testing"

func TestIsUIDAnnotation(t *testing.T) {
	for _, suffix := range []string{"db-sync", "db-expand", "db-purge", "db-clean"} {
		if key := UIDAnnotation(suffix); !IsUIDAnnotation(key) {
			t.Errorf("IsUIDAnnotation(%q) = false", key)
		}
	}
	for _, key := range []string{"operators.c5c3.io/last--job-uid", "operators.c5c3.io/last-job-uid", "operators.c5c3.io/probe-url",
		"example.org/last-db-sync-job-uid", "operators.c5c3.io/last-db-sync-job-uid-x", ""} {
		if IsUIDAnnotation(key) {
			t.Errorf("IsUIDAnnotation(%q) = true", key)
		}
	}
}
