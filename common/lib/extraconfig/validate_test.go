package extraconfig

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

type wantErr struct {
	Type   field.ErrorType
	Field  string
	Detail string
}

func TestValidate(t *testing.T) {
	cs := loadPlacement(t)
	cat25, _ := cs.For("2025.2")
	cat26, _ := cs.For("2026.1")
	const secret = "hunter2"

	tests := []struct {
		name         string
		extra        map[string]map[string]string
		reg          Registry
		cat          *Catalog
		release      string
		checkCatalog bool
		wantErrs     []wantErr
		wantWarnings []string
	}{
		{name: "empty", cat: cat25, release: "2025.2", checkCatalog: true},
		{
			name:  "known options pass",
			extra: map[string]map[string]string{"DEFAULT": {"log_dir": "/x"}, "placement": {"max_allocation_candidates": "100"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
		},
		{
			name:  "empty names and newlines",
			extra: map[string]map[string]string{"": {"k": "v"}, "a\nb": {"k": "v"}, "DEFAULT": {"": "v", "x\ry": "v", "log_dir": secret + "\n[x]"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeInvalid, "spec.extraConfig[]", "section name must not be empty"},
				{field.ErrorTypeInvalid, "spec.extraConfig[DEFAULT][]", "key must not be empty"},
				{field.ErrorTypeInvalid, "spec.extraConfig[DEFAULT][log_dir]", "value must not contain CR or LF"},
				{field.ErrorTypeInvalid, "spec.extraConfig[DEFAULT][x\ry]", "key must not contain CR or LF"},
				{field.ErrorTypeInvalid, "spec.extraConfig[a\nb]", "section name must not contain CR or LF"},
			},
		},
		{
			name:  "rejected owned key is forbidden and skips the catalog",
			extra: map[string]map[string]string{"api": {"auth_strategy": "noauth2"}, "keystone_authtoken": {"password": secret}},
			reg:   testRegistry, cat: cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeForbidden, "spec.extraConfig[api][auth_strategy]", "auth_strategy is managed via the operator (keystone auth is mandatory)"},
				{field.ErrorTypeForbidden, "spec.extraConfig[keystone_authtoken][password]", "password is managed via spec.serviceUser.secretRef (password comes from the Secret)"},
			},
		},
		{
			name:  "rejected owned key is forbidden without catalog check",
			extra: map[string]map[string]string{"api": {"auth_strategy": "noauth2"}},
			reg:   testRegistry,
			wantErrs: []wantErr{
				{field.ErrorTypeForbidden, "spec.extraConfig[api][auth_strategy]", "auth_strategy is managed via the operator (keystone auth is mandatory)"},
			},
		},
		{
			name:  "honoured owned key skips the catalog",
			extra: map[string]map[string]string{"keystone_authtoken": {"password": "x"}},
			reg:   Registry{{Section: "keystone_authtoken", Key: "password", Owner: "o", Impact: "i"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
		},
		{
			name:  "auth plugin option not in catalog is rejected",
			extra: map[string]map[string]string{"keystone_authtoken": {"user_domain_id": "default", "password": secret}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeInvalid, "spec.extraConfig[keystone_authtoken][password]", "no such option in the placement 2025.2 option catalog"},
				{field.ErrorTypeInvalid, "spec.extraConfig[keystone_authtoken][user_domain_id]", "no such option in the placement 2025.2 option catalog"},
			},
		},
		{
			name:  "unknown section reported once",
			extra: map[string]map[string]string{"nova": {"a": "1", "b": "2"}, "api": {"auth-strategy": "keystone"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeInvalid, "spec.extraConfig[api][auth-strategy]", "no such option in the placement 2025.2 option catalog"},
				{field.ErrorTypeInvalid, "spec.extraConfig[nova]", "no such section in the placement 2025.2 option catalog"},
			},
		},
		{
			name:  "section names are case sensitive",
			extra: map[string]map[string]string{"default": {"debug": "true"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeInvalid, "spec.extraConfig[default]", "no such section in the placement 2025.2 option catalog"},
			},
		},
		{
			name:  "workarounds exists only in 2026.1",
			extra: map[string]map[string]string{"workarounds": {"optimize_for_wide_provider_trees": "true"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantErrs: []wantErr{
				{field.ErrorTypeInvalid, "spec.extraConfig[workarounds]", "no such section in the placement 2025.2 option catalog"},
			},
		},
		{
			name:  "workarounds accepted in 2026.1",
			extra: map[string]map[string]string{"workarounds": {"optimize_for_wide_provider_trees": "true"}},
			cat:   cat26, release: "2026.1", checkCatalog: true,
		},
		{
			name:  "deprecated options warn",
			extra: map[string]map[string]string{"DEFAULT": {"auth_strategy": "keystone", "logfile": "/x"}, "keystone_authtoken": {"memcache_servers": "m:11211"}},
			cat:   cat25, release: "2025.2", checkCatalog: true,
			wantWarnings: []string{
				"[DEFAULT] auth_strategy is deprecated, replaced by [api] auth_strategy",
				"[DEFAULT] logfile is deprecated, replaced by [DEFAULT] log_file",
				"[keystone_authtoken] memcache_servers is deprecated, replaced by [keystone_authtoken] memcached_servers",
			},
		},
		{
			name:    "deprecated without replacement",
			extra:   map[string]map[string]string{"s": {"old": "1"}},
			cat:     &Catalog{Service: "glance", Release: "2026.1", Sections: map[string]CatalogSection{"s": {Deprecated: map[string]string{"old": ""}}}},
			release: "2026.1", checkCatalog: true,
			wantWarnings: []string{"[s] old is deprecated with no replacement"},
		},
		{
			name:  "catalog check off",
			extra: map[string]map[string]string{"nova": {"a": "1"}},
			cat:   cat25, release: "2025.2",
		},
		{
			name:    "no catalog warns once and skips",
			extra:   map[string]map[string]string{"nova": {"a": "1"}, "DEFAULT": {"b": "2"}},
			release: "2027.1", checkCatalog: true,
			wantWarnings: []string{"no option catalog for placement release 2027.1; extraConfig options not checked"},
		},
		{
			name:    "no catalog still checks names",
			extra:   map[string]map[string]string{"DEFAULT": {"": "x"}},
			release: "latest", checkCatalog: true,
			wantErrs:     []wantErr{{field.ErrorTypeInvalid, "spec.extraConfig[DEFAULT][]", "key must not be empty"}},
			wantWarnings: []string{"no option catalog for placement release latest; extraConfig options not checked"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, warnings := Validate(field.NewPath("spec", "extraConfig"), tt.extra, tt.reg, "placement", tt.cat, tt.release, tt.checkCatalog)
			var got []wantErr
			for _, e := range errs {
				got = append(got, wantErr{e.Type, e.Field, e.Detail})
				if strings.Contains(e.Error(), secret) {
					t.Errorf("error leaks a value: %v", e)
				}
			}
			if diff := cmp.Diff(tt.wantErrs, got); diff != "" {
				t.Errorf("errors mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWarnings, warnings); diff != "" {
				t.Errorf("warnings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
