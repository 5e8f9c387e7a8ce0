package render_test

import (
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func paste(t *testing.T, g *glancev1.Glance) ini.File {
	t.Helper()
	s, err := render.PasteINI(g)
	return testenv.ParseINI(t, s, err)
}

func TestPastePipeline(t *testing.T) {
	base := "cors http_proxy_to_wsgi versionnegotiation authtoken context"
	cases := []struct {
		name string
		g    func() *glancev1.Glance
		want string
	}{
		{"minimal", minimal, base + " rootapp"},
		{"cache filter last before rootapp", func() *glancev1.Glance {
			g := minimal()
			g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "late", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
			return g
		}, base + " late cache rootapp"},
		{"before and after keep spec order", full, "request_id sizelimit " + base + " audit cache rootapp"},
		{"a user filter named cache without the image cache", jsonPolicy, "healthcheck_proxy " + base + " cache rootapp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := paste(t, tc.g())
			if got := f["pipeline:api"]["pipeline"]; got != tc.want {
				t.Errorf("pipeline = %q, want %q", got, tc.want)
			}
			for _, name := range strings.Fields(tc.want) {
				if name == "rootapp" {
					continue
				}
				if f["filter:"+name]["paste.filter_factory"] == "" {
					t.Errorf("pipeline entry %s has no [filter:%s] factory", name, name)
				}
			}
		})
	}
}

func TestPasteSections(t *testing.T) {
	f := paste(t, minimal())
	want := map[string]map[string]string{
		"composite:glance-api-keystone": {"paste.composite_factory": "glance.api:root_app_factory", "/": "api", "/healthcheck": "healthcheck"},
		"composite:rootapp":             {"paste.composite_factory": "glance.api:root_app_factory", "/": "apiversions", "/v2": "apiv2app"},
		"app:apiversions":               {"paste.app_factory": "glance.api.versions:create_resource"},
		"app:apiv2app":                  {"paste.app_factory": "glance.api.v2.router:API.factory"},
		"app:healthcheck": {"paste.app_factory": "oslo_middleware:Healthcheck.app_factory",
			"backends": "disable_by_file", "disable_by_file_path": "/etc/glance/healthcheck_disable"},
		"filter:cors":               {"paste.filter_factory": "oslo_middleware.cors:filter_factory", "oslo_config_project": "glance"},
		"filter:http_proxy_to_wsgi": {"paste.filter_factory": "oslo_middleware:HTTPProxyToWSGI.factory"},
		"filter:versionnegotiation": {"paste.filter_factory": "glance.api.middleware.version_negotiation:VersionNegotiationFilter.factory"},
		"filter:authtoken":          {"paste.filter_factory": "keystonemiddleware.auth_token:filter_factory", "delay_auth_decision": "true"},
		"filter:context":            {"paste.filter_factory": "glance.api.middleware.context:ContextMiddleware.factory"},
	}
	for section, keys := range want {
		if len(f[section]) != len(keys) {
			t.Errorf("[%s] = %v, want exactly %v", section, f[section], keys)
		}
		for k, v := range keys {
			if f[section][k] != v {
				t.Errorf("[%s] %s = %q, want %q", section, k, f[section][k], v)
			}
		}
	}
	if _, ok := f["filter:cache"]; ok {
		t.Error("[filter:cache] rendered without spec.imageCache")
	}
	g := minimal()
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
	if got := paste(t, g)["filter:cache"]["paste.filter_factory"]; got != "glance.api.middleware.cache:CacheFilter.factory" {
		t.Errorf("cache filter factory = %q", got)
	}
}

// paste reads the file with ConfigParser interpolation: a literal % is doubled.
func TestPasteMiddlewareConfig(t *testing.T) {
	f := paste(t, full())
	audit := f["filter:audit"]
	if audit["paste.filter_factory"] != "auditmiddleware:filter_factory" || audit["log_format"] != "%%(asctime)s 100%%" ||
		audit["audit_map_file"] != "/etc/glance/audit_map.yaml" {
		t.Errorf("[filter:audit] = %v", audit)
	}
}

func TestPasteRefusesCollidingMiddleware(t *testing.T) {
	bad := []serviceapi.MiddlewareSpec{
		{Name: "authtoken", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore},
		{Name: "rootapp", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter},
		{Name: "api", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter},
		{Name: "healthcheck", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter},
		{Name: "two words", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter},
		{Name: "m", FilterFactory: "a:b", Position: "middle"},
		{Name: "m", FilterFactory: "", Position: serviceapi.MiddlewareAfter},
		{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"use": "egg:x"}},
		{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"paste.filter_factory": "x:y"}},
	}
	for _, m := range bad {
		g := minimal()
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{m}
		if _, err := render.ConfigData(g, testEnabled, "minio", nil); err == nil {
			t.Errorf("middleware %+v rendered", m)
		}
	}
	g := minimal()
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
	g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "cache", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
	if _, err := render.PasteINI(g); err == nil {
		t.Error("middleware named cache rendered beside the image cache filter")
	}
	g.Spec.Middleware = append(g.Spec.Middleware[:0], serviceapi.MiddlewareSpec{Name: "x", FilterFactory: "a:b", Position: "after"},
		serviceapi.MiddlewareSpec{Name: "x", FilterFactory: "c:d", Position: "before"})
	if _, err := render.PasteINI(g); err == nil {
		t.Error("a middleware listed twice rendered")
	}
}

func TestReservedMiddlewareName(t *testing.T) {
	for _, tc := range []struct {
		name       string
		imageCache bool
		want       bool
	}{
		{"cors", false, true}, {"context", false, true}, {"glance-api-keystone", false, true},
		{"apiversions", false, true}, {"apiv2app", false, true},
		{"cache", true, true}, {"cache", false, false}, {"audit", true, false},
	} {
		if got := render.ReservedMiddlewareName(tc.name, tc.imageCache); got != tc.want {
			t.Errorf("ReservedMiddlewareName(%q, %v) = %v", tc.name, tc.imageCache, got)
		}
	}
}
