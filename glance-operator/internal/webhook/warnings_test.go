package webhook

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/shared"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

func filtering(f glancev1.ImportFilteringSpec) func(g *glancev1.Glance) {
	return func(g *glancev1.Glance) { g.Spec.ImportFiltering = &f }
}

func retention(days int32) func(g *glancev1.Glance) {
	return func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(days)} }
}

// Every admitted-with-warning case of glance-api.md §5, through the whole
// validator (catalog warnings included); want is one substring per warning.
func TestValidatorWarnings(t *testing.T) {
	uwsgiBlock := func(rel string) func(g *glancev1.Glance) {
		return func(g *glancev1.Glance) {
			g.Spec.OpenStackRelease = rel
			g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &shared.UWSGISpec{}}
		}
	}
	workers := func(rel string) func(g *glancev1.Glance) {
		return func(g *glancev1.Glance) {
			g.Spec.OpenStackRelease = rel
			g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(4))}
		}
	}
	cases := []struct {
		name     string
		old, mut func(g *glancev1.Glance) // old nil: create
		want     []string
	}{
		{name: "uwsgi below 2026.1", mut: uwsgiBlock("2025.2"), want: []string{"spec.apiServer.uwsgi has no effect below 2026.1"}},
		{name: "uwsgi at 2026.1", mut: uwsgiBlock("2026.1")},
		{name: "workers at 2026.1", mut: workers("2026.1"), want: []string{"spec.apiServer.workers has no effect from 2026.1"}},
		{name: "workers below 2026.1", mut: workers("2025.2")},
		{name: "no catalog for the release", mut: func(g *glancev1.Glance) { g.Spec.OpenStackRelease = "2027.1" },
			want: []string{"no option catalog for glance release 2027.1"}},
		{name: "deprecated option", mut: func(g *glancev1.Glance) {
			g.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logdir": "/var/log"}}
		}, want: []string{"[DEFAULT] logdir is deprecated, replaced by [DEFAULT] log_dir"}},
		{name: "disallowedSchemes inert", mut: filtering(glancev1.ImportFilteringSpec{DisallowedSchemes: []string{"http"}}),
			want: []string{"disallowedSchemes has no effect while allowedSchemes is unset"}},
		{name: "disallowedPorts inert", mut: filtering(glancev1.ImportFilteringSpec{DisallowedPorts: []int32{8080}}),
			want: []string{"disallowedPorts has no effect while allowedPorts is unset: the allow-list then defaults to [443]"}},
		{name: "deny-list with an empty allow-list applies, but the allow-list widens",
			mut:  filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{}, DisallowedSchemes: []string{"http"}}),
			want: []string{"allowedSchemes is [], which allows every scheme"}},
		{name: "allowedPorts []", mut: filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{}}),
			want: []string{"allowedPorts is [], which allows every port web-download can use (the default is [443])"}},
		{name: "allowedSchemes beyond the default", mut: filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https", "http"}}),
			want: []string{"allowedSchemes widens the default [https] by http"}},
		{name: "allowedPorts beyond the default", mut: filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{443, 8443, 8443}}),
			want: []string{"allowedPorts widens the default [443] by 8443"}},
		{name: "allow-lists at the default", mut: filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https"}, AllowedPorts: []int32{443}})},
		{name: "empty deny-lists", mut: filtering(glancev1.ImportFilteringSpec{DisallowedSchemes: []string{}, DisallowedPorts: []int32{}})},
		{name: "retention lowered from the default", old: func(*glancev1.Glance) {}, mut: retention(7),
			want: []string{"spec.dbPurge.retentionDays lowered from 30 to 7 days"}},
		{name: "retention raised", old: retention(7), mut: retention(8)},
		{name: "retention back to the default", old: retention(60), mut: func(g *glancev1.Glance) { g.Spec.DBPurge = nil },
			want: []string{"lowered from 60 to 30 days"}},
		{name: "low retention on create", mut: retention(1)},
	}
	v := glanceValidator(t, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var old *glancev1.Glance
			if tc.old != nil {
				old = valid()
				tc.old(old)
			}
			g := cmp.Or(old, valid()).DeepCopy() // an update starts from the old object
			tc.mut(g)
			w, err := v.Validate(context.Background(), g, old)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if len(w) != len(tc.want) {
				t.Fatalf("warnings = %q, want %d", w, len(tc.want))
			}
			for i := range w {
				if !strings.Contains(w[i], tc.want[i]) {
					t.Errorf("warning %q does not contain %q", w[i], tc.want[i])
				}
			}
		})
	}
}
