package webhook

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// Warnings are what admission lets through but the user should know: a knob
// the launch mode ignores, an inert or widened import filter, and a lowered
// purge retention (the purge cannot be undone). old is nil on create.
func Warnings(g, old *glancev1.Glance) []string {
	var out []string
	s := &g.Spec
	uwsgiMode := render.UWSGIMode(s.OpenStackRelease)
	if s.APIServer != nil && s.APIServer.UWSGI != nil && !uwsgiMode {
		out = append(out, "spec.apiServer.uwsgi has no effect below 2026.1, where glance-api runs as the eventlet server; "+
			"set spec.apiServer.workers instead")
	}
	if s.APIServer != nil && s.APIServer.Workers != nil && uwsgiMode {
		out = append(out, "spec.apiServer.workers has no effect from 2026.1, where glance-api runs under uWSGI; "+
			"set spec.apiServer.uwsgi.processes instead")
	}
	if f := s.ImportFiltering; f != nil {
		out = append(out, filterWarnings("Schemes", f.AllowedSchemes, f.DisallowedSchemes, []string{glancev1.SchemeHTTPS})...)
		out = append(out, filterWarnings("Ports", ports(f.AllowedPorts), ports(f.DisallowedPorts), []string{"443"})...)
	}
	if old != nil {
		was, now := render.EffectiveDBPurge(old).RetentionDays, render.EffectiveDBPurge(g).RetentionDays
		if now < was {
			out = append(out, fmt.Sprintf("spec.dbPurge.retentionDays lowered from %d to %d days: the next purge "+
				"deletes soft-deleted rows older than %d days for good", was, now, now))
		}
	}
	return out
}

// filterWarnings covers an allow/deny pair whose allow-list has a default: a
// deny-list is inert while the allow-list is nil (glance then ignores it), and
// an allow-list of [] or beyond the default widens what web-download reaches.
func filterWarnings(what string, allowed, disallowed, def []string) []string {
	var out []string
	field := "spec.importFiltering.allowed" + what
	switch {
	case allowed == nil && len(disallowed) > 0:
		out = append(out, fmt.Sprintf("spec.importFiltering.disallowed%s has no effect while allowed%s is unset: "+
			"the allow-list then defaults to [%s] and glance ignores the deny-list", what, what, strings.Join(def, ",")))
	case allowed != nil && len(allowed) == 0:
		out = append(out, fmt.Sprintf("%s is [], which allows every %s web-download can use (the default is [%s])",
			field, strings.ToLower(strings.TrimSuffix(what, "s")), strings.Join(def, ",")))
	default:
		var extra []string
		for _, a := range allowed {
			// A non-ASCII entry is refused as an unknown scheme; the warning stays ASCII.
			if !slices.Contains(def, a) && !slices.Contains(extra, a) && !strings.ContainsFunc(a, func(r rune) bool { return r > unicode.MaxASCII }) {
				extra = append(extra, a)
			}
		}
		if len(extra) > 0 {
			out = append(out, fmt.Sprintf("%s widens the default [%s] by %s", field, strings.Join(def, ","), strings.Join(extra, ",")))
		}
	}
	return out
}

func ports(in []int32) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, p := range in {
		out[i] = strconv.Itoa(int(p))
	}
	return out
}
