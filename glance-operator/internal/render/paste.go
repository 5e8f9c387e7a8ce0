package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/paste"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Paste section names: the app glance loads is glance-api + "-keystone"
// ([paste_deploy] flavor = keystone).
const (
	pasteRoot     = "glance-api-keystone"
	pastePipeline = "api"
	pasteRootApp  = "rootapp"
	pasteVersions = "apiversions"
	pasteV2       = "apiv2app"
	pasteHealth   = "healthcheck"
	pasteCache    = "cache"
	// healthcheckDisableFile lets an operator drain a pod by hand: when it
	// exists, /healthcheck answers 503.
	healthcheckDisableFile = "/etc/glance/healthcheck_disable"
)

// Entry points of upstream glance's etc/glance-api-paste.ini.
const (
	factoryRoot       = "glance.api:root_app_factory"
	factoryVersions   = "glance.api.versions:create_resource"
	factoryV2         = "glance.api.v2.router:API.factory"
	factoryHealth     = "oslo_middleware:Healthcheck.app_factory"
	factoryCORS       = "oslo_middleware.cors:filter_factory"
	factoryProxy      = "oslo_middleware:HTTPProxyToWSGI.factory"
	factoryVersionNeg = "glance.api.middleware.version_negotiation:VersionNegotiationFilter.factory"
	factoryAuthtoken  = "keystonemiddleware.auth_token:filter_factory"
	factoryContext    = "glance.api.middleware.context:ContextMiddleware.factory"
	factoryCache      = "glance.api.middleware.cache:CacheFilter.factory"
)

// pasteFilter is a [filter:<name>] section.
type pasteFilter struct {
	name string
	conf map[string]string
}

// baseFilters are the operator's filters in pipeline order, with their keys.
var baseFilters = []pasteFilter{
	{"cors", map[string]string{"paste.filter_factory": factoryCORS, "oslo_config_project": "glance"}},
	{"http_proxy_to_wsgi", map[string]string{"paste.filter_factory": factoryProxy}},
	{"versionnegotiation", map[string]string{"paste.filter_factory": factoryVersionNeg}},
	// delay_auth_decision lets the unauthenticated version document through.
	{"authtoken", map[string]string{"paste.filter_factory": factoryAuthtoken, "delay_auth_decision": "true"}},
	{"context", map[string]string{"paste.filter_factory": factoryContext}},
}

// ReservedMiddlewareName reports whether a spec.middleware name would collide
// with a section or pipeline entry the operator renders; "cache" only
// collides while the image cache is on.
func ReservedMiddlewareName(name string, imageCache bool) bool {
	switch name {
	case pasteRoot, pastePipeline, pasteRootApp, pasteVersions, pasteV2, pasteHealth:
		return true
	case pasteCache:
		return imageCache
	}
	return slices.ContainsFunc(baseFilters, func(f pasteFilter) bool { return f.name == name })
}

// PasteINI renders glance-api-paste.ini: /healthcheck bypasses the pipeline
// (and so authentication); every other path runs
// [before...] cors http_proxy_to_wsgi versionnegotiation authtoken context
// [after...] [cache] rootapp.
func PasteINI(g *glancev1.Glance) (string, error) {
	imageCache := g.Spec.ImageCache != nil
	f := ini.File{
		"composite:" + pasteRoot: {
			"paste.composite_factory": factoryRoot,
			"/":                       pastePipeline,
			"/healthcheck":            pasteHealth,
		},
		"composite:" + pasteRootApp: {
			"paste.composite_factory": factoryRoot,
			"/":                       pasteVersions,
			"/v2":                     pasteV2,
		},
		"app:" + pasteVersions: {"paste.app_factory": factoryVersions},
		"app:" + pasteV2:       {"paste.app_factory": factoryV2},
		"app:" + pasteHealth: {
			"paste.app_factory":    factoryHealth,
			"backends":             "disable_by_file",
			"disable_by_file_path": healthcheckDisableFile,
		},
	}
	before, after, err := paste.Middleware(f, g.Spec.Middleware, func(name string) bool { return ReservedMiddlewareName(name, imageCache) })
	if err != nil {
		return "", err
	}
	pipeline := slices.Clone(before)
	for _, b := range baseFilters {
		f["filter:"+b.name] = maps.Clone(b.conf)
		pipeline = append(pipeline, b.name)
	}
	pipeline = append(pipeline, after...)
	if imageCache {
		f["filter:"+pasteCache] = map[string]string{"paste.filter_factory": factoryCache}
		pipeline = append(pipeline, pasteCache)
	}
	pipeline = append(pipeline, pasteRootApp)
	f["pipeline:"+pastePipeline] = map[string]string{"pipeline": strings.Join(pipeline, " ")}

	out, err := ini.Render(f)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", KeyPasteINI, err)
	}
	return string(out), nil
}
