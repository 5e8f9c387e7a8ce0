package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Golden compares got with testdata/<name>.golden; want=false asserts that
// no golden exists (the key must not be rendered). With update it rewrites
// (or removes) the file instead: review every changed golden against the
// spec before accepting it.
func Golden(t *testing.T, name, got string, want, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if update {
		if !want {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(path)
	if !want {
		if err == nil {
			t.Errorf("%s exists but %s is not rendered", path, name)
		}
		return
	}
	if err != nil {
		t.Fatalf("reading golden (run with -update to create): %v", err)
	}
	if string(raw) != got {
		t.Errorf("%s differs from golden (run with -update and review):\n--- want\n%s\n--- got\n%s", name, raw, got)
	}
}
