package catalog

import "testing"

func TestLoadEmbeddedCatalogs(t *testing.T) {
	cats, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, rel := range []string{"2025.2", "2026.1"} {
		c, ok := cats.For(rel)
		if !ok {
			t.Fatalf("no catalog for %s", rel)
		}
		if _, ok := c.Sections["keystone_authtoken"]; !ok {
			t.Errorf("%s: keystone_authtoken section missing", rel)
		}
	}
	if _, ok := cats.For("2024.1"); ok {
		t.Errorf("unexpected catalog for 2024.1")
	}
}
