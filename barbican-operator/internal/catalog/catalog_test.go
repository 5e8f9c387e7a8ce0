package catalog

import (
	"slices"
	"strings"
	"testing"
)

// Exactly the two supported releases are embedded, each with the sections
// the webhook's owned-key registry and exemptions refer to.
func TestEmbeddedBarbicanCatalogs(t *testing.T) {
	cats, err := Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if got := cats.Releases(); !slices.Equal(got, []string{"2025.2", "2026.1"}) {
		t.Fatalf("releases = %v, want [2025.2 2026.1]", got)
	}
	for _, rel := range cats.Releases() {
		c, ok := cats.For(rel)
		if !ok {
			t.Fatalf("%s: no catalog", rel)
		}
		if c.Service != "barbican" || c.Release != rel {
			t.Errorf("%s: service %q release %q", rel, c.Service, c.Release)
		}
		for _, sec := range []string{"DEFAULT", "database", "keystone_authtoken", "queue", "secretstore", "vault_plugin", "oslo_policy"} {
			if _, ok := c.Sections[sec]; !ok {
				t.Errorf("%s: section %s missing", rel, sec)
			}
		}
		// A store's own section is barbican's runtime name, never generated;
		// the webhook exempts the prefix.
		for name := range c.Sections {
			if strings.HasPrefix(name, "secretstore:") {
				t.Errorf("%s: generated section %s; revisit the secretstore: exemption", rel, name)
			}
		}
	}
}

// The catalogs differ where the generator output differs, so each release
// is checked against its own file.
func TestCatalogsAreReleaseSpecific(t *testing.T) {
	cats, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	has := func(rel, section, opt string) bool {
		c, _ := cats.For(rel)
		return slices.Contains(c.Sections[section].Opts, opt)
	}
	if has("2025.2", "database", "synchronous_reader") || !has("2026.1", "database", "synchronous_reader") {
		t.Error("[database] synchronous_reader should be new in 2026.1")
	}
	if !has("2025.2", "DEFAULT", "watch_log_file") || has("2026.1", "DEFAULT", "watch_log_file") {
		t.Error("[DEFAULT] watch_log_file should be gone in 2026.1")
	}
	if c, ok := cats.For("2026.1-p1"); !ok || c.Release != "2026.1" {
		t.Error("a suffixed release should select its base catalog")
	}
	if _, ok := cats.For("2027.1"); ok {
		t.Error("2027.1 has no catalog")
	}
}
