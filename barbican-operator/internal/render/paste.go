package render

import (
	"fmt"
	"slices"
	"strings"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/paste"
	"github.com/c5c3/openstack-operators/common/lib/release"
)

// Pipeline and app names of barbican's shipped barbican-api-paste.ini.
const (
	pipeVersion   = "barbican_version"
	pipeNoAuth    = "barbican_api"
	pipeProfile   = "barbican-profile"
	pipeKeystone  = "barbican-api-keystone"
	pipeAudit     = "barbican-api-keystone-audit"
	appAPI        = "apiapp"
	appVersion    = "versionapp"
	appHealth     = "healthcheck"
	compositeMain = "main"
	// healthcheckDisableFile drains a pod by hand: while it exists,
	// /healthcheck answers 503.
	healthcheckDisableFile = ConfigDir + "/healthcheck_disable"
)

// Filter names of the shipped file.
const (
	filterCORS      = "cors"
	filterRequestID = "request_id"
	filterProxy     = "http_proxy_to_wsgi"
	filterAuthtoken = "authtoken"
	filterContext   = "context"
	filterMicrover  = "microversion"
	filterNoAuthCtx = "unauthenticated-context"
	filterAudit     = "audit"
	filterSimple    = "simple"
	filterProfile   = "profile"
)

// requestIDRelease is the first release whose paste file puts request_id
// among the front filters and drops the profiling pipeline.
var requestIDRelease = release.Release{Year: 2026, Minor: 1}

// RequestIDLayout reports whether rel uses the 2026.1 paste layout (front
// filters cors request_id http_proxy_to_wsgi, no barbican-profile); an
// unparseable release keeps the older layout.
func RequestIDLayout(rel string) bool {
	r, err := release.Parse(rel)
	return err == nil && r.Compare(requestIDRelease) >= 0
}

// pasteFilters are the [filter:<name>] sections of the layout.
func pasteFilters(requestID bool) map[string]map[string]string {
	f := map[string]map[string]string{
		filterCORS:      {"paste.filter_factory": "oslo_middleware.cors:filter_factory", "oslo_config_project": "barbican"},
		filterProxy:     {"paste.filter_factory": "oslo_middleware:HTTPProxyToWSGI.factory"},
		filterAuthtoken: {"paste.filter_factory": "keystonemiddleware.auth_token:filter_factory"},
		filterContext:   {"paste.filter_factory": "barbican.api.middleware.context:ContextMiddleware.factory"},
		filterMicrover:  {"paste.filter_factory": "barbican.api.middleware.microversion:MicroversionMiddleware.factory"},
		filterNoAuthCtx: {"paste.filter_factory": "barbican.api.middleware.context:UnauthenticatedContextMiddleware.factory"},
		filterSimple:    {"paste.filter_factory": "barbican.api.middleware.simple:SimpleFilter.factory"},
		filterAudit:     {"paste.filter_factory": "keystonemiddleware.audit:filter_factory", "audit_map_file": ConfigDir + "/api_audit_map.conf"},
	}
	if requestID {
		f[filterRequestID] = map[string]string{"paste.filter_factory": "oslo_middleware:RequestId.factory"}
	} else {
		f[filterProfile] = map[string]string{
			"use":                   "egg:repoze.profile",
			"log_filename":          "myapp.profile",
			"cachegrind_filename":   "cachegrind.out.myapp",
			"discard_first_request": "true",
			"path":                  "/__profile__",
			"flush_at_shutdown":     "true",
			"unwind":                "false",
		}
	}
	return f
}

// frontFilters open every pipeline the shipped file routes through cors.
func frontFilters(requestID bool) []string {
	if requestID {
		return []string{filterCORS, filterRequestID, filterProxy}
	}
	return []string{filterCORS, filterProxy}
}

// ReservedMiddlewareName reports whether a spec.middleware name would reuse
// a section or pipeline entry of rel's paste file.
func ReservedMiddlewareName(name, rel string) bool {
	switch name {
	case compositeMain, pipeVersion, pipeNoAuth, pipeKeystone, pipeAudit, appAPI, appVersion, appHealth:
		return true
	case pipeProfile:
		return !RequestIDLayout(rel)
	}
	_, ok := pasteFilters(RequestIDLayout(rel))[name]
	return ok
}

// PasteINI renders barbican-api-paste.ini: the file barbican ships, with
// /healthcheck outside authentication (no token, no database) and /v1 on
// barbican-api-keystone, which spec.middleware extends:
// [before...] <front filters> authtoken context microversion [after...] apiapp.
func PasteINI(b *barbicanv1.Barbican) (string, error) {
	rel := b.Spec.OpenStackRelease
	requestID := RequestIDLayout(rel)
	front := frontFilters(requestID)
	pipeline := func(parts ...string) map[string]string {
		return map[string]string{"pipeline": strings.Join(slices.Concat(front, parts), " ")}
	}
	f := ini.File{
		"composite:" + compositeMain: {
			"use":          "egg:Paste#urlmap",
			"/":            pipeVersion,
			"/healthcheck": appHealth,
			"/v1":          pipeKeystone,
		},
		"pipeline:" + pipeVersion: pipeline(filterMicrover, appVersion),
		"pipeline:" + pipeNoAuth:  pipeline(filterNoAuthCtx, filterMicrover, appAPI),
		// The audit pipeline ships without cors.
		"pipeline:" + pipeAudit: {"pipeline": strings.Join(slices.Concat(
			slices.DeleteFunc(slices.Clone(front), func(s string) bool { return s == filterCORS }),
			[]string{filterAuthtoken, filterContext, filterMicrover, filterAudit, appAPI}), " ")},
		"app:" + appAPI:     {"paste.app_factory": "barbican.api.app:create_main_app"},
		"app:" + appVersion: {"paste.app_factory": "barbican.api.app:create_version_app"},
		"app:" + appHealth: {
			"paste.app_factory":    "oslo_middleware:Healthcheck.app_factory",
			"backends":             "disable_by_file",
			"disable_by_file_path": healthcheckDisableFile,
		},
	}
	if !requestID {
		f["pipeline:"+pipeProfile] = pipeline(filterNoAuthCtx, filterMicrover,
			"egg:Paste#cgitb", "egg:Paste#httpexceptions", filterProfile, appAPI)
	}
	for name, conf := range pasteFilters(requestID) {
		f["filter:"+name] = conf
	}
	before, after, err := paste.Middleware(f, b.Spec.Middleware, func(name string) bool { return ReservedMiddlewareName(name, rel) })
	if err != nil {
		return "", err
	}
	f["pipeline:"+pipeKeystone] = map[string]string{"pipeline": strings.Join(slices.Concat(
		before, front, []string{filterAuthtoken, filterContext, filterMicrover}, after, []string{appAPI}), " ")}

	out, err := ini.Render(f)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", KeyPaste, err)
	}
	return string(out), nil
}
