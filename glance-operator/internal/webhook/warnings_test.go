package webhook

import (
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
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
			g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
		}
	}
	workers := func(rel string) func(g *glancev1.Glance) {
		return func(g *glancev1.Glance) {
			g.Spec.OpenStackRelease = rel
			g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(4))}
		}
	}
	cases := []at.WarningCase[*glancev1.Glance]{
		{Name: "uwsgi below 2026.1", Mut: uwsgiBlock("2025.2"), Want: []string{"spec.apiServer.uwsgi has no effect below 2026.1"}},
		{Name: "uwsgi at 2026.1", Mut: uwsgiBlock("2026.1")},
		{Name: "workers at 2026.1", Mut: workers("2026.1"), Want: []string{"spec.apiServer.workers has no effect from 2026.1"}},
		{Name: "workers below 2026.1", Mut: workers("2025.2")},
		{Name: "no catalog for the release", Mut: func(g *glancev1.Glance) { g.Spec.OpenStackRelease = "2027.1" },
			Want: []string{"no option catalog for glance release 2027.1"}},
		{Name: "deprecated option", Mut: func(g *glancev1.Glance) {
			g.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logdir": "/var/log"}}
		}, Want: []string{"[DEFAULT] logdir is deprecated, replaced by [DEFAULT] log_dir"}},
		{Name: "disallowedSchemes inert", Mut: filtering(glancev1.ImportFilteringSpec{DisallowedSchemes: []string{"http"}}),
			Want: []string{"disallowedSchemes has no effect while allowedSchemes is unset"}},
		{Name: "disallowedPorts inert", Mut: filtering(glancev1.ImportFilteringSpec{DisallowedPorts: []int32{8080}}),
			Want: []string{"disallowedPorts has no effect while allowedPorts is unset: the allow-list then defaults to [443]"}},
		{Name: "deny-list with an empty allow-list applies, but the allow-list widens",
			Mut:  filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{}, DisallowedSchemes: []string{"http"}}),
			Want: []string{"allowedSchemes is [], which allows every scheme"}},
		{Name: "allowedPorts []", Mut: filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{}}),
			Want: []string{"allowedPorts is [], which allows every port web-download can use (the default is [443])"}},
		{Name: "allowedSchemes beyond the default", Mut: filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https", "http"}}),
			Want: []string{"allowedSchemes widens the default [https] by http"}},
		{Name: "allowedPorts beyond the default", Mut: filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{443, 8443, 8443}}),
			Want: []string{"allowedPorts widens the default [443] by 8443"}},
		{Name: "allow-lists at the default", Mut: filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https"}, AllowedPorts: []int32{443}})},
		{Name: "empty deny-lists", Mut: filtering(glancev1.ImportFilteringSpec{DisallowedSchemes: []string{}, DisallowedPorts: []int32{}})},
		{Name: "retention lowered from the default", Old: func(*glancev1.Glance) {}, Mut: retention(7),
			Want: []string{"spec.dbPurge.retentionDays lowered from 30 to 7 days"}},
		{Name: "retention raised", Old: retention(7), Mut: retention(8)},
		{Name: "retention back to the default", Old: retention(60), Mut: func(g *glancev1.Glance) { g.Spec.DBPurge = nil },
			Want: []string{"lowered from 60 to 30 days"}},
		{Name: "low retention on create", Mut: retention(1)},
	}
	v := glanceValidator(t, nil)
	at.Warnings(t, valid, v.Validate, cases)
}
