package catalog

import (
	"slices"
	"testing"
)

// Both supported releases are embedded with the sections the webhook's
// exemptions and owned keys assume; no other release is.
func TestEmbeddedGlanceCatalogs(t *testing.T) {
	cats, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got := cats.Releases(); !slices.Equal(got, []string{"2025.2", "2026.1"}) {
		t.Fatalf("releases = %v", got)
	}
	for _, rel := range cats.Releases() {
		c, _ := cats.For(rel)
		for _, sec := range []string{"DEFAULT", "glance_store", "keystone_authtoken", "paste_deploy"} {
			if _, ok := c.Sections[sec]; !ok {
				t.Errorf("%s: section %s missing", rel, sec)
			}
		}
		// Staging and task stores are glance's own sections, absent from the
		// generator output; the webhook exempts them.
		if _, ok := c.Sections["os_glance_staging_store"]; ok {
			t.Errorf("%s: os_glance_staging_store present; drop its exemption", rel)
		}
	}
}
