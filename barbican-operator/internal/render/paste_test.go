package render_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func paste(t *testing.T, b *barbicanv1.Barbican) ini.File {
	t.Helper()
	s, err := render.PasteINI(b)
	return testenv.ParseINI(t, s, err)
}

func TestRequestIDLayout(t *testing.T) {
	for rel, want := range map[string]bool{
		"2025.1": false, "2025.2": false, "2026.1": true, "2026.2": true, "2031.1": true, "latest": false, "": false,
	} {
		if got := render.RequestIDLayout(rel); got != want {
			t.Errorf("RequestIDLayout(%q) = %v, want %v", rel, got, want)
		}
	}
}

// The two layouts of §4.3: the front filters open every cors pipeline, the
// audit pipeline ships without cors, 2026.1 drops profiling.
func TestPastePipelines(t *testing.T) {
	at := func(rel string) *barbicanv1.Barbican { b := minimal(); b.Spec.OpenStackRelease = rel; return b }
	cases := []struct {
		name string
		b    *barbicanv1.Barbican
		want map[string]string
	}{
		{"2025.2", at("2025.2"), map[string]string{
			"barbican_version":            "cors http_proxy_to_wsgi microversion versionapp",
			"barbican_api":                "cors http_proxy_to_wsgi unauthenticated-context microversion apiapp",
			"barbican-profile":            "cors http_proxy_to_wsgi unauthenticated-context microversion egg:Paste#cgitb egg:Paste#httpexceptions profile apiapp",
			"barbican-api-keystone":       "cors http_proxy_to_wsgi authtoken context microversion apiapp",
			"barbican-api-keystone-audit": "http_proxy_to_wsgi authtoken context microversion audit apiapp",
		}},
		{"2026.1", at("2026.1"), map[string]string{
			"barbican_version":            "cors request_id http_proxy_to_wsgi microversion versionapp",
			"barbican_api":                "cors request_id http_proxy_to_wsgi unauthenticated-context microversion apiapp",
			"barbican-api-keystone":       "cors request_id http_proxy_to_wsgi authtoken context microversion apiapp",
			"barbican-api-keystone-audit": "request_id http_proxy_to_wsgi authtoken context microversion audit apiapp",
		}},
		{"2025.2 middleware before and after", brownfield(), map[string]string{
			"barbican-api-keystone": "sizelimit cors http_proxy_to_wsgi authtoken context microversion audit_v2 apiapp",
		}},
		{"2026.1 middleware keeps spec order per side", full(), map[string]string{
			"barbican-api-keystone": "sizelimit debug_headers cors request_id http_proxy_to_wsgi authtoken context microversion audit_v2 apiapp",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := paste(t, tc.b)
			for name, want := range tc.want {
				if got := f["pipeline:"+name]["pipeline"]; got != want {
					t.Errorf("[pipeline:%s] = %q, want %q", name, got, want)
				}
			}
			var pipelines []string
			for section := range f {
				if name, ok := strings.CutPrefix(section, "pipeline:"); ok {
					pipelines = append(pipelines, name)
				}
			}
			wantProfile := !render.RequestIDLayout(tc.b.Spec.OpenStackRelease)
			if got := slices.Contains(pipelines, "barbican-profile"); got != wantProfile {
				t.Errorf("barbican-profile rendered %v, want %v", got, wantProfile)
			}
			if _, got := f["filter:profile"]; got != wantProfile {
				t.Errorf("[filter:profile] rendered %v, want %v", got, wantProfile)
			}
			if _, got := f["filter:request_id"]; got == wantProfile {
				t.Errorf("[filter:request_id] rendered %v, want %v", got, !wantProfile)
			}
			// Every filter a pipeline names has a section.
			for _, name := range pipelines {
				entries := strings.Fields(f["pipeline:"+name]["pipeline"])
				for _, e := range entries[:len(entries)-1] {
					if !strings.HasPrefix(e, "egg:") && f["filter:"+e] == nil {
						t.Errorf("pipeline %s names %s without a [filter:%s]", name, e, e)
					}
				}
				if app := entries[len(entries)-1]; f["app:"+app] == nil {
					t.Errorf("pipeline %s ends in %s without an [app:%s]", name, app, app)
				}
			}
		})
	}
}

// The routing and the apps outside the pipelines.
func TestPasteRouting(t *testing.T) {
	for _, b := range []*barbicanv1.Barbican{minimal(), full()} {
		f := paste(t, b)
		want := map[string]map[string]string{
			"composite:main": {"use": "egg:Paste#urlmap", "/": "barbican_version", "/healthcheck": "healthcheck", "/v1": "barbican-api-keystone"},
			"app:healthcheck": {"paste.app_factory": "oslo_middleware:Healthcheck.app_factory",
				"backends": "disable_by_file", "disable_by_file_path": "/etc/barbican/healthcheck_disable"},
			"app:apiapp":                     {"paste.app_factory": "barbican.api.app:create_main_app"},
			"app:versionapp":                 {"paste.app_factory": "barbican.api.app:create_version_app"},
			"filter:cors":                    {"paste.filter_factory": "oslo_middleware.cors:filter_factory", "oslo_config_project": "barbican"},
			"filter:authtoken":               {"paste.filter_factory": "keystonemiddleware.auth_token:filter_factory"},
			"filter:microversion":            {"paste.filter_factory": "barbican.api.middleware.microversion:MicroversionMiddleware.factory"},
			"filter:context":                 {"paste.filter_factory": "barbican.api.middleware.context:ContextMiddleware.factory"},
			"filter:unauthenticated-context": {"paste.filter_factory": "barbican.api.middleware.context:UnauthenticatedContextMiddleware.factory"},
		}
		for section, keys := range want {
			if !maps.Equal(f[section], keys) {
				t.Errorf("%s: [%s] = %v, want %v", b.Spec.OpenStackRelease, section, f[section], keys)
			}
		}
	}
}

// paste reads the file with ConfigParser interpolation: a literal % is doubled.
func TestPasteMiddlewareConfig(t *testing.T) {
	f := paste(t, full())
	want := map[string]string{"paste.filter_factory": "keystonemiddleware.audit:filter_factory", "log_format": "%%(asctime)s 100%%"}
	if got := f["filter:audit_v2"]; !maps.Equal(got, want) {
		t.Errorf("[filter:audit_v2] = %v, want %v", got, want)
	}
}

func TestPasteRefusesMiddleware(t *testing.T) {
	mw := func(name, position string) serviceapi.MiddlewareSpec {
		return serviceapi.MiddlewareSpec{Name: name, FilterFactory: "a:b", Position: position}
	}
	cases := []struct {
		name string
		rel  string
		mws  []serviceapi.MiddlewareSpec
	}{
		{"base filter", "2025.2", []serviceapi.MiddlewareSpec{mw("authtoken", serviceapi.MiddlewareBefore)}},
		{"shipped unused filter", "2025.2", []serviceapi.MiddlewareSpec{mw("audit", serviceapi.MiddlewareAfter)}},
		{"app name", "2025.2", []serviceapi.MiddlewareSpec{mw("apiapp", serviceapi.MiddlewareAfter)}},
		{"healthcheck", "2026.1", []serviceapi.MiddlewareSpec{mw("healthcheck", serviceapi.MiddlewareAfter)}},
		{"pipeline name", "2025.2", []serviceapi.MiddlewareSpec{mw("barbican-api-keystone", serviceapi.MiddlewareAfter)}},
		{"composite name", "2025.2", []serviceapi.MiddlewareSpec{mw("main", serviceapi.MiddlewareAfter)}},
		{"profile below 2026.1", "2025.2", []serviceapi.MiddlewareSpec{mw("profile", serviceapi.MiddlewareAfter)}},
		{"request_id from 2026.1", "2026.1", []serviceapi.MiddlewareSpec{mw("request_id", serviceapi.MiddlewareBefore)}},
		{"listed twice", "2025.2", []serviceapi.MiddlewareSpec{mw("x", serviceapi.MiddlewareBefore), mw("x", serviceapi.MiddlewareAfter)}},
		{"bad name", "2025.2", []serviceapi.MiddlewareSpec{mw("two words", serviceapi.MiddlewareAfter)}},
		{"bad position", "2025.2", []serviceapi.MiddlewareSpec{mw("x", "middle")}},
		{"no factory", "2025.2", []serviceapi.MiddlewareSpec{{Name: "x", Position: serviceapi.MiddlewareAfter}}},
		{"use key", "2025.2", []serviceapi.MiddlewareSpec{{Name: "x", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"use": "egg:x"}}}},
		{"paste key", "2025.2", []serviceapi.MiddlewareSpec{{Name: "x", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"paste.filter_factory": "x:y"}}}},
		{"LF in a value", "2025.2", []serviceapi.MiddlewareSpec{{Name: "x", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"k": "a\nb"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := minimal()
			b.Spec.OpenStackRelease = tc.rel
			b.Spec.Middleware = tc.mws
			if out, err := render.PasteINI(b); err == nil {
				t.Errorf("accepted:\n%s", out)
			}
		})
	}
	// What is reserved follows the layout.
	for _, ok := range []struct{ name, rel string }{{"request_id", "2025.2"}, {"profile", "2026.1"}} {
		b := minimal()
		b.Spec.OpenStackRelease = ok.rel
		b.Spec.Middleware = []serviceapi.MiddlewareSpec{mw(ok.name, serviceapi.MiddlewareBefore)}
		if _, err := render.PasteINI(b); err != nil {
			t.Errorf("%s at %s refused: %v", ok.name, ok.rel, err)
		}
	}
}
